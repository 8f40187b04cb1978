/** The worker's queue stores for the benches: where the services are, and a store of one's own. */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { openQueueStore } from '../../src/queue/open-store.ts';
import type { QueueStore, StoreChoice } from '../../src/queue/store.ts';
import { namespaceOf } from '../../src/state/postgres-schema.ts';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function reachable(url: string, port: number): Promise<boolean> {
  const parsed = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: parsed.hostname, port: Number(parsed.port || port) });
    socket.setTimeout(500);
    socket.once('connect', () => resolve(Boolean(socket.destroy())));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => resolve(Boolean(socket.destroy()) && false));
  });
}

/** Whether the service a store needs answers (the embedded one needs none). */
export function storeAvailable(kind: StoreChoice['kind']): Promise<boolean> {
  if (kind === 'redis') return reachable(REDIS_URL, 6379);
  if (kind === 'postgres') return reachable(DATABASE_URL, 5432);
  return Promise.resolve(true);
}

/**
 * A store of its own (a fresh prefix, schema or folder), so nothing a previous run left (an adapted
 * limit, leases) is seen; `dispose` closes it and removes what it wrote.
 */
export async function openFreshStore(
  kind: StoreChoice['kind'],
  tag: string,
): Promise<{ store: QueueStore; dispose(): Promise<void> }> {
  const prefix = `{feed-sync-bench-${tag}-${process.pid}-${Date.now().toString(36)}}`;
  if (kind === 'redis') {
    const store = await openQueueStore({ kind, url: REDIS_URL }, prefix);
    return {
      store,
      async dispose() {
        await store.close();
        const redis = new Redis(REDIS_URL);
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      },
    };
  }
  if (kind === 'postgres') {
    const store = await openQueueStore({ kind, url: DATABASE_URL }, prefix);
    return {
      store,
      async dispose() {
        await store.close();
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        for (const schema of [namespaceOf(prefix), `${namespaceOf(prefix)}_state`])
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'feed-sync-bench-'));
  const store = await openQueueStore({ kind, dir: join(dir, 'queue') }, prefix);
  return {
    store,
    async dispose() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
