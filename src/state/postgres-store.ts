import { createPostgresBudget } from '../budget/index.ts';
import { createPostgresRunHistory } from './postgres-run-history.ts';
import type { Queryable } from './postgres-schema.ts';
import { stateSchemaOf } from './postgres-schema.ts';
import { DEFAULT_HISTORY_RUNS, type HistoryOptions } from './run-history.ts';
import type { FeedState, StateStore } from './state-store.ts';

/**
 * The worker's state on Postgres (DATABASE_URL or the embedded store), in `<namespace>_state`.
 * A feed is one row per field, like the Redis hash: an update touches only the fields it names,
 * so two writers never clobber each other's fields. Tables come from `migrateStateSchema`.
 */
export function createPostgresStateStore(
  db: Queryable,
  namespace: string,
  history: HistoryOptions = {},
): StateStore {
  const s = stateSchemaOf(namespace);
  return {
    ...createPostgresRunHistory(db, namespace, history.historyRuns ?? DEFAULT_HISTORY_RUNS),
    budgets: createPostgresBudget(db, s),
    async getFeed(feedId) {
      const { rows } = await db.query<{ field: string; value: unknown }>(
        `SELECT field, value FROM ${s}.feed_state WHERE feed_id = $1`,
        [feedId],
      );
      const state: Record<string, unknown> = {};
      for (const row of rows) state[row.field] = row.value;
      return state as FeedState;
    },
    async updateFeed(feedId, patch) {
      const set = Object.entries(patch).filter(([, value]) => value !== undefined);
      const removed = Object.entries(patch)
        .filter(([, value]) => value === undefined)
        .map(([field]) => field);
      // One statement: the upserts and the removals land together or not at all.
      await db.query(
        `WITH removed AS (
           DELETE FROM ${s}.feed_state WHERE feed_id = $1 AND field = ANY($4::text[])
         )
         INSERT INTO ${s}.feed_state (feed_id, field, value)
         SELECT $1, f, v::jsonb FROM unnest($2::text[], $3::text[]) AS t(f, v)
         ON CONFLICT (feed_id, field) DO UPDATE SET value = excluded.value`,
        [feedId, set.map(([f]) => f), set.map(([, v]) => JSON.stringify(v)), removed],
      );
    },
    async getSettingsFingerprint(chatbot) {
      const { rows } = await db.query<{ fingerprint: string }>(
        `SELECT fingerprint FROM ${s}.settings_fingerprint WHERE chatbot = $1`,
        [chatbot],
      );
      return rows[0]?.fingerprint;
    },
    async setSettingsFingerprint(chatbot, fingerprint) {
      await db.query(
        `INSERT INTO ${s}.settings_fingerprint VALUES ($1, $2)
         ON CONFLICT (chatbot) DO UPDATE SET fingerprint = excluded.fingerprint`,
        [chatbot, fingerprint],
      );
    },
  };
}
