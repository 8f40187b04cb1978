import { describe, expect, it } from 'vitest';
import type { RunReport } from '../reconcile/index.ts';
import { historyOf } from './history.ts';

const run = (startedAt: string, extra: Partial<RunReport>): RunReport =>
  ({
    feedId: 'acme',
    startedAt,
    outcome: 'ok',
    dryRun: false,
    failed: [],
    heldKeys: [],
    rejections: [],
    ...extra,
  }) as unknown as RunReport;

describe('historyOf', () => {
  it('the runs that touched one listing, newest first, with their fields old → new', () => {
    const price = { field: 'SalePrice', from: 1, to: 2 };
    const runs = [
      run('2026-11-25T10:00:00.000Z', { trigger: 'config', changes: [{ key: 'A-2', op: 'update', id: 9 }] }),
      run('2026-11-24T10:00:00.000Z', {
        trigger: 'schedule',
        changes: [{ key: 'A-1', op: 'update', id: 7, fields: [price] }],
      }),
      run('2026-11-23T10:00:00.000Z', { changes: [{ key: 'A-1', op: 'create', summary: '1 Main St · $1' }] }),
    ];
    expect(historyOf(runs, 'A-1')).toEqual([
      {
        startedAt: '2026-11-24T10:00:00.000Z',
        trigger: 'schedule',
        outcome: 'ok',
        dryRun: false,
        what: 'updated',
        id: 7,
        fields: [price],
      },
      {
        startedAt: '2026-11-23T10:00:00.000Z',
        trigger: 'cli',
        outcome: 'ok',
        dryRun: false,
        what: 'created',
        detail: '1 Main St · $1',
      },
    ]);
  });

  it('marks a run the command line made, read beside the worker’s (withCliHistory)', () => {
    const create = { changes: [{ key: 'A-1', op: 'create' as const, summary: '1 Main St' }] };
    const runs = [
      { ...run('2026-11-25T10:00:00.000Z', { trigger: 'manual', ...create }), fromStateFile: true },
      run('2026-11-24T10:00:00.000Z', { trigger: 'schedule', ...create }),
    ] as RunReport[];
    expect(historyOf(runs, 'A-1').map((e) => [e.trigger, e.commandLine])).toEqual([
      ['manual', true],
      ['schedule', undefined],
    ]);
  });

  it('a failed write, a hold, a grace; a run whose report left writes out says it may have changed it', () => {
    const runs = [
      run('2026-11-26T10:00:00.000Z', {
        graceKeys: [
          {
            key: 'A-1',
            id: 7,
            reason: 'gone',
            since: '2026-11-26T10:00:00.000Z',
            until: '2026-11-29T10:00:00.000Z',
            action: 'delete',
          },
        ],
      }),
      run('2026-11-25T10:00:00.000Z', {
        changes: [{ key: 'A-1', op: 'update', id: 7, fields: [] }],
        failed: [{ key: 'A-1', operation: 'update', id: 7, code: 'E_PLATFORM', message: 'update: Code 500' }],
      }),
      run('2026-11-24T10:00:00.000Z', {
        heldKeys: [{ key: 'A-1', index: 3, reason: 'not_a_number', message: 'Row 5 of a.csv: x', ids: [7] }],
      }),
      run('2026-11-23T10:00:00.000Z', { changes: [], changesOmitted: 600 }),
    ];
    expect(historyOf(runs, 'A-1').map((e) => `${e.what}: ${e.detail}`)).toEqual([
      'kept in grace: gone since 2026-11-26 10:00 UTC, deleted from 2026-11-29 10:00 UTC',
      'update failed: update: Code 500',
      'held: Row 5 of a.csv: x',
      'not recorded: the run wrote 600 more listing(s) than its report keeps; this one may be among them',
    ]);
  });
});
