import type { Redis } from 'ioredis';
import { type Queryable, stateSchemaOf } from '../state/index.ts';

/**
 * Open alert incidents, shared by every worker on the same store so that retries, later runs and
 * other workers stay quiet until a run shows the incident is over. An id is `<feed>:<kind>`.
 */
export interface IncidentStore {
  /** Record the incident as open; true when it was not open already (so it should be posted). */
  open(id: string): Promise<boolean>;
  /** Forget incidents (over, or their post failed and the next occurrence should try again). */
  close(ids: string[]): Promise<void>;
}

/** In Redis, the hash `<prefix>:alerts:open`. */
export function createRedisIncidentStore(redis: Redis, prefix: string): IncidentStore {
  const key = `${prefix}:alerts:open`;
  return {
    async open(id) {
      return (await redis.hsetnx(key, id, new Date().toISOString())) === 1;
    },
    async close(ids) {
      if (ids.length > 0) await redis.hdel(key, ...ids);
    },
  };
}

/** On Postgres, the table `<namespace>_state.open_incident`. */
export function createPostgresIncidentStore(db: Queryable, namespace: string): IncidentStore {
  const s = stateSchemaOf(namespace);
  return {
    async open(id) {
      const { rowCount } = await db.query(
        `INSERT INTO ${s}.open_incident (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`,
        [id],
      );
      return rowCount === 1;
    },
    async close(ids) {
      if (ids.length > 0) await db.query(`DELETE FROM ${s}.open_incident WHERE id = ANY($1::text[])`, [ids]);
    },
  };
}
