import type pg from 'pg';

type Listener = Parameters<NodeJS.EventEmitter['on']>[1];

/** One `connect()` of the pool: the shared client, with listeners of its own and a no-op release. */
export interface Lease {
  query: pg.Client['query'];
  connection: unknown;
  on(event: string, listener: Listener): Lease;
  removeListener(event: string, listener: Listener): Lease;
  removeAllListeners(event?: string): Lease;
  release(destroy?: boolean): void;
}

/** What BullMQ's Postgres backend takes as a caller-owned `pg.Pool` (its `PgPool` shape). */
export interface SingleConnectionPool {
  query: pg.Client['query'];
  connect(): Promise<Lease>;
  /** The caller owns the client: ending the pool does not end it. */
  end(): Promise<void>;
  on(event: string, listener: Listener): SingleConnectionPool;
  removeAllListeners(event?: string): SingleConnectionPool;
}

/**
 * A pool of one connection, for BullMQ on the embedded store. PGlite is one Postgres session:
 * through its socket server a NOTIFY is answered on the connection that ran the committing query,
 * never on another one that LISTENs. BullMQ wakes its workers with exactly that (the producer's
 * `add_job` notifies, the worker's dedicated connection listens), so across connections a worker
 * would sleep until its next delayed job. On one shared connection every NOTIFY reaches every
 * listener, as on a real server. PGlite runs one query at a time anyway, so nothing is lost.
 *
 * Each `connect()` is a lease on the client whose listeners are its own (removing them never
 * touches another lease's or node-postgres' own) and whose release does nothing. Not for
 * transactions: BEGIN on one lease would take in every other lease's queries (BullMQ runs none
 * after its migrations, which run before the pool is shared).
 */
export function singleConnectionPool(client: pg.Client): SingleConnectionPool {
  const query = serialized(client);
  const emitter = client as unknown as NodeJS.EventEmitter;

  function lease(): Lease {
    const added: Array<[string, Listener]> = [];
    const self: Lease = {
      query,
      connection: (client as unknown as { connection: unknown }).connection,
      on(event, listener) {
        added.push([event, listener]);
        emitter.on(event, listener);
        return self;
      },
      removeListener(event, listener) {
        const at = added.findIndex(([e, l]) => e === event && l === listener);
        if (at >= 0) added.splice(at, 1);
        emitter.removeListener(event, listener);
        return self;
      },
      removeAllListeners(event) {
        for (const [e, l] of added.filter(([e]) => event === undefined || e === event))
          self.removeListener(e, l);
        return self;
      },
      release() {},
    };
    return self;
  }

  const poolListeners: Array<[string, Listener]> = [];
  const pool: SingleConnectionPool = {
    query,
    connect: async () => lease(),
    end: async () => {},
    on(event, listener) {
      // The pool's 'error' is the client's; 'connect' never fires (there is no new connection).
      if (event === 'error') {
        poolListeners.push([event, listener]);
        emitter.on(event, listener);
      }
      return pool;
    },
    removeAllListeners() {
      for (const [e, l] of poolListeners.splice(0)) emitter.removeListener(e, l);
      return pool;
    },
  };
  return pool;
}

/**
 * The client's `query`, one query at a time: the next is sent when the one before has settled.
 * BullMQ's queue and worker share the client and query it concurrently; node-postgres would queue
 * them itself, but that queue is deprecated (a DeprecationWarning at the worker's start) and goes in
 * pg 9. PGlite runs one query at a time anyway: nothing waits longer than it did. A callback or a
 * submittable (BullMQ uses neither) goes straight to the client.
 */
function serialized(client: pg.Client): pg.Client['query'] {
  const direct = client.query.bind(client) as (...args: unknown[]) => unknown;
  let tail: Promise<unknown> = Promise.resolve();
  const query = (...args: unknown[]) => {
    const [first] = args;
    const submittable = typeof (first as { submit?: unknown } | undefined)?.submit === 'function';
    if (submittable || typeof args.at(-1) === 'function') return direct(...args);
    const result = tail.then(() => direct(...args));
    tail = result.catch(() => {});
    return result;
  };
  return query as pg.Client['query'];
}
