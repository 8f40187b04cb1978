import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresRunHistory } from '../../src/state/postgres-run-history.ts';
import { migrateStateSchema, namespaceOf } from '../../src/state/postgres-schema.ts';
import { createPostgresStateStore } from '../../src/state/postgres-store.ts';
import { BACKENDS, DATABASE_URL } from './backends.ts';
import { uniquePrefix } from './helpers.ts';

const postgres = BACKENDS.find((b) => b.name === 'postgres')!;

describe.skipIf(!postgres.available)('the run history on Postgres', () => {
  const namespace = namespaceOf(uniquePrefix());
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${namespace}_state" CASCADE`);
    await pool.end();
  });

  it('keeps the last runs newest first, replaces a run recorded twice, and sets lastReport', async () => {
    await migrateStateSchema(pool, namespace);
    const history = createPostgresRunHistory(pool, namespace, 3);
    const state = createPostgresStateStore(pool, namespace);
    const run = (n: number, outcome = 'ok') => ({
      feedId: 'a',
      startedAt: `2026-01-0${n}T00:00:00Z`,
      outcome,
    });
    for (const n of [1, 2, 3, 4]) await history.recordRun('a', run(n));
    await history.recordRun('a', run(4, 'failed'));
    await history.recordRun('b', { startedAt: 'x' });
    expect(await history.listRuns('a')).toEqual([run(4, 'failed'), run(3), run(2)]);
    expect(await history.listRuns('a', 1)).toEqual([run(4, 'failed')]);
    expect(await history.listRuns('none')).toEqual([]);
    expect((await state.getFeed('a')).lastReport).toEqual(run(4, 'failed'));
  });
});
