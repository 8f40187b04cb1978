import { describe, expect, it } from 'vitest';
import type { Failure, RunReport } from '../reconcile/index.ts';
import { runReport } from '../testing/run-report.ts';
import { changeOutcome } from './change-outcome.ts';
import { historyOf } from './history.ts';

const base: RunReport = runReport();
const failure = (key: string): Failure => ({
  key,
  operation: 'create',
  code: 'E_PLATFORM',
  message: `create: platform answered Code 400: bad ${key}`,
});

describe('changeOutcome', () => {
  it('tells a change done from one failed, not issued, or past what the report keeps', () => {
    const run: RunReport = {
      ...base,
      changes: ['A', 'B', 'C', 'X', 'Y'].map((key) => ({ key, op: 'create' as const })),
      // The first two failures in key order kept, of five.
      failed: [failure('A'), failure('B')],
      failedCount: 5,
      notApplied: { creates: ['C'], updates: [], deletes: [] },
    };
    const outcome = (key: string) => changeOutcome(run, { key, op: 'create' });
    expect(['A', 'B', 'C', 'X'].map(outcome)).toEqual(['failed', 'failed', 'not issued', 'maybe failed']);
    expect(changeOutcome({ ...run, failedCount: 2 }, { key: 'X', op: 'create' })).toBe('done');
    const cut = {
      ...run,
      failedCount: 2,
      notApplied: {
        creates: ['C'],
        updates: [],
        deletes: [],
        counts: { creates: 9, updates: 0, deletes: 0 },
      },
    };
    expect(changeOutcome(cut, { key: 'X', op: 'create' })).toBe('maybe not issued');
    expect(changeOutcome(cut, { key: 'B', op: 'create' })).toBe('failed');
  });

  it('keeps the history from saying created for a write that was not issued or may have failed', () => {
    const run: RunReport = {
      ...base,
      changes: [
        { key: 'C', op: 'create' },
        { key: 'X', op: 'create' },
      ],
      failed: [failure('A')],
      failedCount: 3,
      notApplied: { creates: ['C'], updates: [], deletes: [] },
    };
    expect(historyOf([run], 'C')[0]).toMatchObject({
      what: 'create not issued',
      detail: 'the run stopped before it; the next run issues it',
    });
    expect(historyOf([run], 'X')[0]).toMatchObject({
      what: 'created',
      detail: 'the report keeps the first 1 of 3 failed writes: this one may be among the others',
    });
  });
});
