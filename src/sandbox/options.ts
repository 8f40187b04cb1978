import type { Operation } from './routes.ts';

/** Fault injection. Rates are shares of requests (0..1), drawn per request from the seeded PRNG. */
export interface FaultOptions {
  /** Answer HTTP 500 with an envelope of Code 500. Default 0. */
  error500Rate: number;
  /** Answer HTTP 429 with a `Retry-After` header. Default 0. */
  rate429Rate: number;
  /** Seconds sent in `Retry-After` on a 429. Default 1. */
  retryAfterSeconds: number;
  /** Never answer; the socket stays open for `hangMs`, then the server destroys it. Default 0. */
  hangRate: number;
  /** How long a hung request stays open before the server drops it, in ms. Default 60000. */
  hangMs: number;
  /** Carry out the operation, then answer HTTP 200 with its JSON cut in half. Default 0. */
  malformedJsonRate: number;
  /** On create only: store the listing, then answer HTTP 502 (the client cannot know it exists). Default 0. */
  ambiguousCreateRate: number;
  /**
   * On writes only (create, update, delete): do nothing and answer Code 400, as a platform answers a
   * record it will not take (a field it stopped accepting). Default 0.
   */
  refuseRate: number;
}

/** How `Images` is rendered as a string in list records: `a,b` or `["a","b"]`. */
export type ImagesFormat = 'comma' | 'json';
/** How streamed answers are framed: `data: {...}\n\n` plus `data: [DONE]`, or one JSON per line. */
export type StreamFraming = 'sse' | 'ndjson';

/** Everything that may change while the sandbox runs (`configure()`, `POST /__sandbox/configure`). */
export interface SandboxSettings {
  /**
   * Expected `Authorization` value (the raw key, no `Bearer`). When neither key is set, every request
   * is accepted: the demo runs without credentials.
   */
  secretKey: string | undefined;
  /** Expected `chatrobot-sessionkey` value. A request carrying either matching header is accepted. */
  sessionKey: string | undefined;
  /** Delay before answering each operation request, in ms. Default 0. */
  latencyMs: number;
  /** Silent server-side cap on `PageSize` of the list operation. Default 1000. */
  maxPageSize: number;
  /**
   * Requests per second admitted (sliding one-second window, all operations together); beyond it,
   * HTTP 429 at once, before the latency. 0 = no limit (the default): the real platform documents none.
   */
  rateLimitPerSecond: number;
  /** Send `Retry-After` (whole seconds until a slot frees) with those 429s. Default true. */
  rateLimitRetryAfter: boolean;
  /** The Retry-After those 429s send, in seconds; 0 = until a slot frees (the default). */
  rateLimitRetryAfterSeconds: number;
  faults: FaultOptions;
  /** Operations faults apply to. Default: create, update, list, delete. */
  faultOperations: Operation[];
  /** Seed of the fault PRNG; setting it again restarts the sequence. Default 1. */
  seed: number;
  /** Default 'comma'. */
  imagesFormat: ImagesFormat;
  /**
   * Update (4.4) as its field table reads: every field required on create is required on update
   * too, an update without one refused (400). Default false: the lenient reading of its example.
   */
  updateRequiresAll: boolean;
  /** Default 'sse'. */
  streamFraming: StreamFraming;
  /** Pause between streamed pieces, in ms, so they arrive as separate chunks. Default 5. */
  streamDelayMs: number;
}

/**
 * A change of settings: any subset; `faults` is merged key by key. A key given as `null` or `''`
 * switches that key off.
 */
export type SandboxConfigure = Partial<Omit<SandboxSettings, 'faults' | 'secretKey' | 'sessionKey'>> & {
  secretKey?: string | null;
  sessionKey?: string | null;
  faults?: Partial<FaultOptions>;
};

/** Options of `startSandbox`. */
export interface SandboxOptions extends SandboxConfigure {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
}

export const DEFAULT_FAULTS: FaultOptions = {
  error500Rate: 0,
  rate429Rate: 0,
  retryAfterSeconds: 1,
  hangRate: 0,
  hangMs: 60_000,
  malformedJsonRate: 0,
  ambiguousCreateRate: 0,
  refuseRate: 0,
};

export const DEFAULT_SETTINGS: SandboxSettings = {
  secretKey: undefined,
  sessionKey: undefined,
  latencyMs: 0,
  maxPageSize: 1000,
  rateLimitPerSecond: 0,
  rateLimitRetryAfter: true,
  rateLimitRetryAfterSeconds: 0,
  faults: DEFAULT_FAULTS,
  faultOperations: ['create', 'update', 'list', 'delete'],
  seed: 1,
  imagesFormat: 'comma',
  updateRequiresAll: false,
  streamFraming: 'sse',
  streamDelayMs: 5,
};

/** Apply a (validated) change to the current settings. Pure. */
export function mergeSettings(current: SandboxSettings, change: SandboxConfigure): SandboxSettings {
  const { faults, secretKey, sessionKey, ...rest } = change;
  return {
    ...current,
    ...definedOnly(rest),
    secretKey: secretKey === undefined ? current.secretKey : secretKey || undefined,
    sessionKey: sessionKey === undefined ? current.sessionKey : sessionKey || undefined,
    faults: { ...current.faults, ...definedOnly(faults ?? {}) },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The settings as shown over HTTP: keys are never echoed, only whether they are set. */
export function describeSettings(settings: SandboxSettings): Record<string, unknown> {
  const { secretKey, sessionKey, ...rest } = settings;
  return { ...rest, secretKey: secretKey ? '[set]' : null, sessionKey: sessionKey ? '[set]' : null };
}
