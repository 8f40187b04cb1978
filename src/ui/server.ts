import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express from 'express';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { FeedSyncError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { pushSettingsPayloadSchema, syncFeedPayloadSchema } from '../queue/index.ts';
import { createMemoryStateStore } from '../state/index.ts';
import { basicAuth, type Credentials } from './basic-auth.ts';
import { type DashboardOptions, dashboardRouter } from './dashboard/routes.ts';
import { exposureProblem } from './exposure.ts';

export interface UiOptions {
  queue: Queue;
  host: string;
  port: number;
  /** Both set: full UI behind basic auth. Unset: read-only, and loopback only. */
  credentials?: Credentials | undefined;
  /** `/healthz`: 200 when ok, 503 otherwise, with the details as JSON. */
  health: () => Promise<{ ok: boolean } & Record<string, unknown>>;
  /** `/metrics`, in Prometheus text format. */
  registry: Registry;
  logger: Logger;
  /** The feed dashboard's sources (run history, config); without them `/` shows no feed. */
  dashboard?: Pick<DashboardOptions, 'state' | 'getConfig' | 'configRefused'>;
}

export interface UiServer {
  url: string;
  close(): Promise<void>;
}

/** Refused before anything listens: a queue UI that can start syncs must not be open to a network. */
export class UiExposureError extends FeedSyncError {
  constructor(message: string) {
    super(message, { kind: 'CONFIG_INVALID', code: 'E_UI_EXPOSED' });
  }
}

/**
 * Throws `UiExposureError` when the UI would listen beyond loopback without credentials, or with the
 * example password, or a short one (see `exposureProblem`).
 */
export function checkUiExposure(host: string, credentials: Credentials | undefined): void {
  const problem = exposureProblem(host, credentials);
  if (problem) throw new UiExposureError(problem);
}

/** The add-job form's payloads: `sync-feed` `{feedId}` or `push-settings` `{chatbot}`. */
const jobDataSchema = {
  oneOf: [
    z.toJSONSchema(syncFeedPayloadSchema, { io: 'input' }),
    z.toJSONSchema(pushSettingsPayloadSchema, { io: 'input' }),
  ],
};

/**
 * The feed dashboard at `/`, bull-board (queue internals) at `/queues`, beside `/healthz` (open, for
 * the container's health check) and `/metrics` (behind the same auth as the rest).
 */
export async function serveUi(options: UiOptions): Promise<UiServer> {
  const { credentials, host } = options;
  checkUiExposure(host, credentials);
  const board = new ExpressAdapter();
  board.setBasePath('/queues');
  createBullBoard({
    queues: [
      new BullMQAdapter(options.queue, {
        readOnlyMode: !credentials,
        allowRetries: Boolean(credentials),
        description: 'sync-feed {feedId}: one feed run · push-settings {chatbot}: one chatbot',
        jobDataSchema,
      }),
    ],
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'feed-sync' } },
  });

  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', async (_req, res) => {
    const health = await options
      .health()
      .catch((error: unknown) => ({ ok: false, error: (error as Error).message }));
    res.status(health.ok ? 200 : 503).json(health);
  });
  if (credentials) app.use(basicAuth(credentials));
  app.get('/metrics', async (_req, res) => {
    res.set('content-type', options.registry.contentType).send(await options.registry.metrics());
  });
  app.use('/queues', board.getRouter());
  app.use(
    dashboardRouter({
      queue: options.queue,
      state: options.dashboard?.state ?? createMemoryStateStore(),
      getConfig: options.dashboard?.getConfig ?? (() => undefined),
      readOnly: !credentials,
      ...(options.dashboard?.configRefused ? { configRefused: options.dashboard.configRefused } : {}),
    }),
  );

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port, host, (error?: Error) =>
      error ? reject(portTaken(error, host, options.port)) : resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  options.logger.info({ url, readOnly: !credentials }, 'dashboard and queue UI listening');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A port another process serves, said with what to do (a second worker on one host with the same
 * `UI_PORT` is the usual cause); any other error as it is.
 */
function portTaken(error: Error, host: string, port: number | undefined): Error {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') return error;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const taken = new Error(
    `${where} is taken by another process (EADDRINUSE): give each process on this host its own port (a worker's UI_PORT, \`feed-sync ui --port\`; \`feed-sync start\` takes 3000), or set UI_PORT on one worker only (or on none, and run \`feed-sync ui\` once for the fleet)`,
    { cause: error },
  );
  return Object.assign(taken, { code: 'EADDRINUSE' });
}
