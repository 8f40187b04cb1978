import { describe, expect, it } from 'vitest';
import type { RunReport } from '../reconcile/index.ts';
import { emptyReport } from '../reconcile/index.ts';
import { exitCodeOf } from './exit-codes.ts';

const at = { startedAt: new Date('2024-05-01T06:00:00Z'), finishedAt: new Date('2024-05-01T06:00:01.5Z') };
const calls = { edit: 0, session: 0, ask: 0, create: 0, update: 0, list: 1, delete: 0 };

function report(patch: Partial<RunReport> = {}): RunReport {
  return {
    ...emptyReport({ feedId: 'feed1', chatbot: 'SN-1', ...at, apiCalls: calls, dryRun: false }),
    ...patch,
  };
}

describe('exitCodeOf', () => {
  it.each([
    [['ok', 'skipped'], 0],
    [['ok', 'guarded'], 3],
    [['guarded', 'failed'], 1],
    [['cancelled'], 130],
    [['failed', 'cancelled'], 130],
    [[], 0],
  ] as const)('%j → %i', (outcomes, code) => {
    expect(exitCodeOf(outcomes.map((outcome) => report({ outcome })))).toBe(code);
  });

  it('a run with rejected or held records is partial (4), below failed and guard tripped', () => {
    expect(exitCodeOf([report({ rejected: 2 })])).toBe(4);
    expect(exitCodeOf([report({ held: 1 })])).toBe(4);
    expect(exitCodeOf([report({ rejected: 2 }), report({ outcome: 'guarded' })])).toBe(3);
  });

  it('a paused run is paused (5) even with rejected records: a script runs it again at resumesAt', () => {
    expect(exitCodeOf([report({ outcome: 'paused', rejected: 3 })])).toBe(5);
    expect(exitCodeOf([report({ rejected: 1 }), report({ outcome: 'paused' })])).toBe(5);
    expect(exitCodeOf([report({ outcome: 'paused' }), report({ outcome: 'guarded' })])).toBe(3);
  });
});
