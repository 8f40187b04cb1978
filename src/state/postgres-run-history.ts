import { type Queryable, stateSchemaOf } from './postgres-schema.ts';

/** What the history needs of a report: `startedAt` identifies a run. The report is stored whole. */
export interface RecordedRun {
  startedAt: string;
}

/**
 * The per-feed run history on Postgres (`<namespace>_state.run_history`), the last `keep` runs,
 * newest first, for the dashboard. Recording a run also makes it the feed's `lastReport`; the same
 * run (same `startedAt`) recorded again replaces its entry. Written to be spread into the Postgres
 * state store once `StateStore` has `recordRun`/`listRuns` (the operator's run history).
 */
export function createPostgresRunHistory(db: Queryable, namespace: string, keep: number) {
  const s = stateSchemaOf(namespace);
  const kept = Math.max(1, keep);
  return {
    async recordRun(feedId: string, report: RecordedRun): Promise<void> {
      const json = JSON.stringify(report);
      await db.query(
        `WITH last AS (
           INSERT INTO ${s}.feed_state (feed_id, field, value) VALUES ($1, 'lastReport', $3::jsonb)
           ON CONFLICT (feed_id, field) DO UPDATE SET value = excluded.value
         )
         INSERT INTO ${s}.run_history (feed_id, started_at, report) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (feed_id, started_at) DO UPDATE SET report = excluded.report`,
        [feedId, report.startedAt, json],
      );
      // A second statement: a data-modifying CTE would not see the row just inserted.
      await db.query(
        `DELETE FROM ${s}.run_history WHERE feed_id = $1 AND seq < (
           SELECT min(seq) FROM (
             SELECT seq FROM ${s}.run_history WHERE feed_id = $1 ORDER BY seq DESC LIMIT $2
           ) AS newest
         )`,
        [feedId, kept],
      );
    },
    async listRuns(feedId: string, limit = kept): Promise<unknown[]> {
      const { rows } = await db.query<{ report: unknown }>(
        `SELECT report FROM ${s}.run_history WHERE feed_id = $1 ORDER BY seq DESC LIMIT $2`,
        [feedId, Math.max(0, limit)],
      );
      return rows.map((row) => row.report);
    },
  };
}
