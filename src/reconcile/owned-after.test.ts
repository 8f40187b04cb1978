import { describe, expect, it } from 'vitest';
import { runReport } from '../testing/run-report.ts';
import { goesOnNow, ownedAfter } from './report.ts';
import type { RunReport } from './report-types.ts';

describe('ownedAfter', () => {
  const snapshot = { remoteCount: 90, pages: 1, pageSize: 100, requestedPageSize: 100 };
  // 10 created, 20 updated, 60 unchanged; 3 held records' listings, 4 in grace, 5 deletes held back.
  const full = runReport({
    mode: 'full',
    snapshot,
    failed: [],
    guards: [],
    created: 10,
    updated: 20,
    unchanged: 60,
    heldOnPlatform: 3,
    inGrace: 4,
    heldDeletes: 5,
  });
  it.each([
    ['a full compare that ended ok: written, unchanged and kept', full, 102],
    ['guarded: the deletes held back are still there', { ...full, outcome: 'guarded' }, 102],
    ['a dry run wrote nothing', { ...full, dryRun: true }, undefined],
    ['an incremental run sees only what it read', { ...full, mode: 'incremental' }, undefined],
    ['a source that goes on next run read part of the feed', { ...full, continues: true }, undefined],
    ['paused', { ...full, outcome: 'paused' }, undefined],
    ['cancelled mid-plan', { ...full, outcome: 'cancelled' }, undefined],
    ['a failed write leaves the count unknown', { ...full, outcome: 'failed', failedCount: 1 }, undefined],
    ['no compare: skipped', { ...full, outcome: 'skipped', snapshot: undefined }, undefined],
  ] as const)('%s', (_name, run, owned) => {
    expect(ownedAfter(run as RunReport)).toBe(owned);
  });
});

describe('ownedAfter, as a reviewer found it', () => {
  const snapshot = { remoteCount: 30, pages: 1, pageSize: 100, requestedPageSize: 100 };
  it('a mark Sold is an update its grace counts too: counted once', () => {
    const marked = runReport({
      mode: 'full',
      snapshot,
      failed: [],
      guards: [],
      created: 0,
      updated: 3,
      markedSold: 1,
      unchanged: 5,
      inGrace: 1,
    });
    expect(ownedAfter(marked)).toBe(8);
  });
  it.each<[string, Partial<RunReport>, number | undefined]>([
    ['an incremental run: what it found, and what its writes added and took', { mode: 'incremental' }, 31],
    ['paused after a delete: the delete happened', { mode: 'incremental', outcome: 'paused' }, 31],
    ['a part of a full read in parts', { mode: 'full', continues: true }, 31],
    ['a failed write: unknown', { mode: 'incremental', failedCount: 1 }, undefined],
    ['an older report without ownedBefore', { mode: 'incremental', ownedBefore: undefined }, undefined],
  ])('%s', (_, extra, owned) => {
    const run = runReport({
      snapshot,
      failed: [],
      guards: [],
      ownedBefore: 30,
      created: 2,
      deleted: 1,
      ...extra,
    });
    expect(ownedAfter(run as RunReport)).toBe(owned);
  });
});

describe('goesOnNow', () => {
  const part = runReport({ outcome: 'ok', continues: true, read: 10 });
  it.each([
    ['a part that read records goes on', part, true],
    ['a part that read nothing new would go on forever: not at once', { ...part, read: 0 }, false],
    [
      'a full read owed (listings missing from the platform) goes on, read or not',
      { ...part, read: 0, fullReadDue: true },
      true,
    ],
    ['a run that ends, paused or failed, does not', { ...part, continues: undefined }, false],
    ['paused', { ...part, outcome: 'paused' }, false],
    ['a dry run', { ...part, dryRun: true }, false],
  ])('%s', (_, report, expected) => expect(goesOnNow(report as RunReport)).toBe(expected));
});
