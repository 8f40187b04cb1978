/** What a fleet leaves in Redis under its prefix, and what Redis served meanwhile (the fleet bench). */
import type { Redis } from 'ioredis';

export interface RedisFootprint {
  /** Bytes (MEMORY USAGE) by kind of key under the prefix. */
  bytes: Record<string, number>;
  keys: number;
  /** `used_memory` of INFO memory after the round, minus before it. */
  usedDelta: number;
}

/** What the store keeps under the prefix, by kind of key. */
export async function footprint(redis: Redis, prefix: string, before: number): Promise<RedisFootprint> {
  const bytes: Record<string, number> = {};
  let keys = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of found) {
      const size = Number(await redis.memory('USAGE', key, 'SAMPLES', 0)) || 0;
      bytes[kindOf(key.slice(prefix.length + 1))] = (bytes[kindOf(key.slice(prefix.length + 1))] ?? 0) + size;
      keys++;
    }
  } while (cursor !== '0');
  return { bytes, keys, usedDelta: (await usedMemory(redis)) - before };
}

/** `feed-sync:123` a job, `feed-sync:123:logs` its log, `state:runs:f1` run history… */
function kindOf(rest: string): string {
  if (rest.startsWith('state:runs:')) return 'run history';
  if (rest.startsWith('state:')) return 'feed state';
  if (rest.startsWith('limiter:')) return 'limiter';
  if (/^feed-sync:\d+:logs$/.test(rest)) return 'job logs';
  if (/^feed-sync:(\d+|repeat:.*)$/.test(rest)) return 'jobs';
  if (rest.startsWith('feed-sync:repeat')) return 'schedulers';
  return 'queue';
}

/** Redis commands served so far, by command (INFO commandstats). */
export async function commandCounts(redis: Redis): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const m of (await redis.info('commandstats')).matchAll(/cmdstat_([^:]+):calls=(\d+)/g))
    counts.set(m[1] ?? '', Number(m[2]));
  return counts;
}

export async function usedMemory(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
}

export async function cleanup(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}
