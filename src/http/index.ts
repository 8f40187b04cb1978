/**
 * The one HTTP layer: `createHttp` (the only import of got), `postForBytes`/`postForStream` (the
 * platform's POSTs: on its own wire, wire.ts, and a streamed answer on node:http; see post.ts), the
 * retryable conditions and
 * `Retry-After`, the one retry policy, the local limiter; distributed/: the limiters that every
 * worker process shares through Redis or Postgres.
 */
export { createHttp, type HttpStream, httpOnFirstUse, phaseTimeouts } from './create-http.ts';
export { createPostgresLimiter } from './distributed/postgres-limiter.ts';
export { createRedisLimiter } from './distributed/redis-limiter.ts';
export { classifyRequestError, isRequestError, isRetryableStatus, retryAfterOf } from './failure.ts';
export { createLocalLimiter, type Limiter, type LimiterOptions, unlimited } from './limiter.ts';
export { type PostAnswer, PostError, postForBytes, postForChunks, postForStream } from './post.ts';
export { type ProxyEnv, proxyNoteFor, stopProxy, useProxy } from './proxy.ts';
export { withRetries } from './retry.ts';
export { type BackoffOptions, parseRetryAfter } from './retry-delay.ts';
export { HttpStatusError } from './status-error.ts';
