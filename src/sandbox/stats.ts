import { type Operation, PATHS } from './routes.ts';

export const FAULT_KINDS = [
  'error500',
  'rate429',
  'hang',
  'malformedJson',
  'ambiguousCreate',
  'refused',
] as const;
/** A fault the sandbox can inject; each has a rate in `FaultOptions` (`error500` ↔ `error500Rate`). */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What the sandbox saw since it started or since the last reset. */
export interface SandboxStats {
  /** Operation requests received, per operation, faulted and rejected ones included. */
  requests: Record<Operation, number>;
  /** Requests to a path that is no operation (answered 404). */
  unknownRequests: number;
  /** All operation and unknown-path requests. Inspection requests (`/__sandbox/…`) are not counted. */
  totalRequests: number;
  /** Requests being handled now (hung ones included). */
  inFlight: number;
  /** Most requests in flight at once since start or reset. */
  peakInFlight: number;
  /**
   * Sum of the time each request was in flight (arrival to response closed), ms, since start or
   * reset: ÷ a span of time, the mean number in flight over it (how busy the client kept its slots).
   */
  busyMs: number;
  /** Faults injected, per kind. */
  faults: Record<FaultKind, number>;
  /** Requests answered 429 by the rate limit (`rateLimitPerSecond`), not by fault injection. */
  rateLimited: number;
}

const zeroRequests = (): Record<Operation, number> =>
  Object.fromEntries(Object.keys(PATHS).map((op) => [op, 0])) as Record<Operation, number>;
const zeroFaults = (): Record<FaultKind, number> =>
  Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;

/** Counts requests, in-flight and faults. In-flight is entered when a request arrives and left when its response closes. */
export class StatsRecorder {
  #requests = zeroRequests();
  #unknown = 0;
  #inFlight = 0;
  #peak = 0;
  #busyMs = 0;
  #faults = zeroFaults();
  #rateLimited = 0;

  /** A request arrived (`operation` undefined: unknown path). Returns the function that ends it, once. */
  enter(operation: Operation | undefined): () => void {
    if (operation) this.#requests[operation]++;
    else this.#unknown++;
    this.#inFlight++;
    this.#peak = Math.max(this.#peak, this.#inFlight);
    let left = false;
    const since = performance.now();
    return () => {
      if (left) return;
      left = true;
      this.#inFlight--;
      this.#busyMs += performance.now() - since;
    };
  }

  fault(kind: FaultKind): void {
    this.#faults[kind]++;
  }

  rateLimited(): void {
    this.#rateLimited++;
  }

  snapshot(): SandboxStats {
    const requests = { ...this.#requests };
    const totalRequests = Object.values(requests).reduce((sum, n) => sum + n, this.#unknown);
    return {
      requests,
      unknownRequests: this.#unknown,
      totalRequests,
      inFlight: this.#inFlight,
      peakInFlight: this.#peak,
      busyMs: Math.round(this.#busyMs),
      faults: { ...this.#faults },
      rateLimited: this.#rateLimited,
    };
  }

  /** Zero the counters. Requests still in flight stay counted in `inFlight`, and the peak restarts from them. */
  reset(): void {
    this.#requests = zeroRequests();
    this.#unknown = 0;
    this.#faults = zeroFaults();
    this.#rateLimited = 0;
    this.#busyMs = 0;
    this.#peak = this.#inFlight;
  }
}
