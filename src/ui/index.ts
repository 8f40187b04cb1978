import type { Config, EnvSettings } from '../config/index.ts';
import type { Logger } from '../logger.ts';
import type { StoreChoice, WorkerService } from '../queue/index.ts';
import { openQueueStore } from '../queue/index.ts';
import { DEFAULT_HISTORY_RUNS } from '../state/index.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { checkUiExposure, serveUi, UiExposureError, type UiServer } from './server.ts';

export { type Credentials, isLoopback } from './basic-auth.ts';
export { EXAMPLE_PASSWORD, exposureProblem, MIN_PASSWORD_LENGTH } from './exposure.ts';
export { createMetrics, type Metrics } from './metrics.ts';
export { checkUiExposure, serveUi, UiExposureError, type UiOptions, type UiServer } from './server.ts';

type UiEnv = Pick<EnvSettings, 'UI_HOST' | 'UI_PORT' | 'UI_USER' | 'UI_PASSWORD'>;

/**
 * UI_USER and UI_PASSWORD, when both are set; neither, none (loopback only, a read-only dashboard).
 * One without the other is a mistake, refused wherever the UI would start (`UiExposureError`): the
 * UI served read-only (or refused beyond loopback for lack of a password that was given) said nothing
 * of the variable missing.
 */
export function credentialsOf(env: UiEnv) {
  if (env.UI_USER && env.UI_PASSWORD) return { user: env.UI_USER, password: env.UI_PASSWORD };
  if (env.UI_USER || env.UI_PASSWORD) {
    const [set, unset] = env.UI_USER ? ['UI_USER', 'UI_PASSWORD'] : ['UI_PASSWORD', 'UI_USER'];
    throw new UiExposureError(
      `${set} is set but ${unset} is not: the dashboard's login needs both (without either, the UI serves loopback only, read-only)`,
    );
  }
  return undefined;
}

/** The UI inside the worker process: its queue, its health, its metrics. */
export function startUi(options: {
  service: WorkerService;
  env: UiEnv;
  logger: Logger;
  metrics?: Metrics;
}): Promise<UiServer> {
  const metrics = options.metrics ?? createMetrics();
  metrics.watchQueue(options.service.queue);
  return serveUi({
    queue: options.service.queue,
    host: options.env.UI_HOST,
    port: options.env.UI_PORT ?? 3000,
    credentials: credentialsOf(options.env),
    health: () => options.service.healthy(),
    registry: metrics.registry,
    logger: options.logger,
    dashboard: {
      state: options.service.state,
      getConfig: () => options.service.config(),
      configRefused: () => options.service.configRefused?.(),
    },
  });
}

/**
 * The UI on its own (`feed-sync ui`): the queue and the run history, healthy when the store answers. The embedded
 * store is one process's: while a worker holds it, this is refused (the worker serves the UI).
 */
export async function startStandaloneUi(options: {
  store: StoreChoice;
  prefix: string;
  /** The feeds and chatbots the dashboard lists; without it, the queue pages only. */
  config?: Config;
  env: UiEnv;
  logger: Logger;
}): Promise<UiServer> {
  // Refused before the store is opened: an open connection would keep a UI that never listens alive.
  checkUiExposure(options.env.UI_HOST, credentialsOf(options.env));
  const store = await openQueueStore(options.store, options.prefix, {
    historyRuns: options.config?.worker.historyRuns ?? DEFAULT_HISTORY_RUNS,
  });
  const queue = store.createQueue();
  const metrics = createMetrics();
  metrics.watchQueue(queue);
  const closeQueue = async () => {
    await queue.close();
    await store.close();
  };
  const server = await serveUi({
    queue,
    host: options.env.UI_HOST,
    port: options.env.UI_PORT ?? 3000,
    credentials: credentialsOf(options.env),
    health: async () => {
      const storeOk = await store.ping();
      return { ok: storeOk, store: storeOk };
    },
    registry: metrics.registry,
    logger: options.logger,
    dashboard: { state: store.state, getConfig: () => options.config },
  }).catch(async (error: unknown) => {
    // Cannot listen (port in use…): exit at once rather than stay up on the store connection.
    await closeQueue();
    throw error;
  });
  return {
    url: server.url,
    async close() {
      await server.close();
      await closeQueue();
    },
  };
}
