import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { readBody } from '../http-io.ts';
import { systemClock } from './clock.ts';
import { createControl, type ResoControl } from './control.ts';
import { CONTROL_PREFIX, handleControl } from './control-http.ts';
import type { GeneratorOptions } from './generate.ts';
import { ResoListingStore } from './listing-store.ts';
import type { ResoRecord } from './odata-eval.ts';
import { parseResoOptions, type ResoProviderOptions, settingsOf } from './options.ts';
import { SkipCache } from './page.ts';
import { handleBridge } from './providers/bridge.ts';
import { afterBytes, handleMlsGrid } from './providers/mlsgrid.ts';
import { handleSpark } from './providers/spark.ts';
import { handleTrestle } from './providers/trestle.ts';
import { memberResource, officeResource, propertyResource, type Resource } from './resources.ts';
import { defaultSettings, keyPrefixOf, type ProviderName } from './settings.ts';
import {
  acceptsGzip,
  emptyCounters,
  newBudget,
  type ProviderReply,
  type ProviderRequest,
  type ResoState,
} from './state.ts';

/** A running provider server: where to point a client, the controls, and `close`. */
export interface ResoProvider extends ResoControl {
  readonly provider: ProviderName;
  /** `http://127.0.0.1:port` (no trailing slash). */
  readonly url: string;
  /** The API root a client is configured with, e.g. `${url}/v2` for MLS Grid. */
  readonly apiUrl: string;
  /** Trestle's token URL; undefined for the bearer-token providers. */
  readonly tokenUrl: string | undefined;
  readonly port: number;
  close(): Promise<void>;
}

const HANDLERS: Record<ProviderName, (request: ProviderRequest, state: ResoState) => ProviderReply> = {
  mlsgrid: handleMlsGrid,
  trestle: handleTrestle,
  bridge: handleBridge,
  spark: handleSpark,
};

/**
 * Start a server that plays one RESO Web API provider (MLS Grid, Trestle, Bridge or Spark) over a
 * generated feed, with the provider's published paging, filters, limits and errors. Options are
 * validated; a bad one throws `ResoOptionsError` naming it.
 */
export async function startResoProvider(input: ResoProviderOptions): Promise<ResoProvider> {
  const options = parseResoOptions(input);
  const settings = settingsOf(options, defaultSettings(options.provider));
  const generator: GeneratorOptions = {
    seed: options.seed ?? 1,
    keyPrefix: keyPrefixOf(options.provider),
    originatingSystem: settings.originatingSystem,
    baseTime: Date.parse(options.baseTime ?? '2024-01-01T00:00:00.000Z'),
    stepMs: options.stepMs ?? 1000,
    tieGroup: options.tieGroup ?? 3,
    mediaHost: `media.${options.provider}.example.com`,
    listingsPerAgent: 20,
    agentsPerOffice: 10,
  };
  const store = new ResoListingStore(generator, options.listings ?? 1000, settings.markerRetentionMs);
  const state: ResoState = {
    settings,
    clock: options.clock ?? systemClock(),
    store,
    resources: resourcesOf(options.provider, generator, store),
    budget: newBudget(settings),
    skipCache: new SkipCache(),
    cursors: new Map(),
    issuedTokens: new Map(),
    suspended: new Map(),
    emails: [],
    warned: new Set(),
    log: [],
    counters: emptyCounters(),
  };
  const budgetKeys = new Set([options.provider === 'trestle' ? settings.clientId : settings.token]);
  const control = createControl(state, budgetKeys);
  const server = createServer({ noDelay: true }, (req, res) => {
    handle(req, res, state, control).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: `sandbox error: ${String(error)}` } }));
    });
  });
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    ...control,
    provider: options.provider,
    url,
    apiUrl: url + apiPath(options.provider, settings.dataset),
    tokenUrl: options.provider === 'trestle' ? `${url}/trestle/oidc/connect/token` : undefined,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

export function apiPath(provider: ProviderName, dataset: string): string {
  return {
    mlsgrid: '/v2',
    trestle: '/trestle/odata',
    bridge: `/api/v2/OData/${dataset}`,
    spark: '/Reso/OData',
  }[provider];
}

function resourcesOf(
  provider: ProviderName,
  generator: GeneratorOptions,
  store: ResoListingStore,
): Map<string, Resource> {
  const listings = () => store.count;
  if (provider !== 'mlsgrid')
    return new Map([
      ['Property', propertyResource(store, (record) => record)],
      ['Member', memberResource(generator, listings)],
      ['Office', officeResource(generator, listings)],
    ]);
  // MLS Grid adds its own fields to every record: MlgCanView (the delete marker) and MlgCanUse.
  const decorate = (record: ResoRecord, deleted: boolean): ResoRecord => ({
    ...record,
    MlgCanView: !deleted,
    MlgCanUse: ['IDX'],
  });
  const withMarker = (resource: Resource): Resource => ({
    ...resource,
    fields: new Set([...resource.fields, 'MlgCanView']),
    record: (index) => ({ ...resource.record(index), MlgCanView: true }),
  });
  return new Map([
    ['Property', propertyResource(store, decorate, ['MlgCanView', 'MlgCanUse'])],
    ['Member', withMarker(memberResource(generator, listings))],
    ['Office', withMarker(officeResource(generator, listings))],
  ]);
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  state: ResoState,
  control: ResoControl,
): Promise<void> {
  const host = req.headers.host ?? '127.0.0.1';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const body = await readBody(req);
  if (url.pathname.startsWith(CONTROL_PREFIX))
    return handleControl(req.method ?? 'GET', url, body, res, control);
  state.counters.requests++;
  const request: ProviderRequest = {
    method: req.method ?? 'GET',
    url,
    headers: req.headers,
    body,
    origin: `http://${host}`,
  };
  const reply =
    request.method === 'GET' || url.pathname.endsWith('/connect/token')
      ? HANDLERS[state.settings.provider](request, state)
      : {
          status: 405,
          body: { error: { code: 405, message: `${request.method} not allowed` } },
          headers: { Allow: 'GET' },
        };
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    ...reply.headers,
  };
  if (reply.status === 429 && state.settings.retryAfter)
    headers['Retry-After'] = String(retryAfterSeconds(state, reply));
  let payload = Buffer.from(JSON.stringify(reply.body));
  if (acceptsGzip(req.headers)) {
    payload = gzipSync(payload, { level: 1 });
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = String(payload.length);
  if (!res.destroyed) {
    res.writeHead(reply.status, headers);
    res.end(payload);
  }
  record(state, request, reply, payload.length);
}

function record(state: ResoState, request: ProviderRequest, reply: ProviderReply, bytes: number): void {
  const { counters } = state;
  counters.byStatus[reply.status] = (counters.byStatus[reply.status] ?? 0) + 1;
  if (reply.budgetKey !== undefined) {
    counters.admitted++;
    counters.bytes += bytes;
    state.budget.addBytes(reply.budgetKey, state.clock.now(), bytes);
    if (state.settings.provider === 'mlsgrid') afterBytes(state, reply.budgetKey);
  } else if (reply.status === 429) counters.refused++;
  if (state.log.length >= 10_000) state.log.splice(0, 1000);
  state.log.push({
    at: new Date(state.clock.now()).toISOString(),
    method: request.method,
    url: request.url.pathname + request.url.search,
    status: reply.status,
    bytes,
  });
}

/** Seconds until the exhausted window frees a slot (none of the providers documents the header). */
function retryAfterSeconds(state: ResoState, reply: ProviderReply): number {
  const now = state.clock.now();
  let latest = now;
  for (const key of [state.settings.token, state.settings.clientId])
    for (const usage of state.budget.usage(key, now))
      if (usage.limit.unit === 'requests' && usage.remaining === 0) latest = Math.max(latest, usage.resetAt);
  void reply;
  return Math.max(1, Math.ceil((latest - now) / 1000));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
