import { describe, expect, it } from 'vitest';
import type { RunReport } from '../reconcile/index.ts';
import { emptyReport } from '../reconcile/index.ts';
import { incidentsOf, rejectedShareOf } from './incidents.ts';

const apiCalls = { edit: 0, session: 0, ask: 0, create: 0, update: 0, list: 1, delete: 0 };
const report = (extra: Partial<RunReport>): RunReport => {
  const now = new Date(0);
  const meta = { feedId: 'small', chatbot: 'BOT', startedAt: now, finishedAt: now, apiCalls, dryRun: false };
  return { ...emptyReport(meta), ...extra };
};

describe('rejectedShareOf', () => {
  it('is computed over every record read, not over the planned ones', () => {
    // A small feed of 20 records, 19 unchanged (no writes planned) and 1 rejected: 5%, not 100%.
    const one = report({ read: 20, rejected: 1, unchanged: 0, created: 0 });
    expect(rejectedShareOf(one)).toBe(0.05);
    expect(incidentsOf(one, 0.1).open).toEqual([]);
  });

  it('alerts past the share, and is 0 for a run that read nothing', () => {
    expect(incidentsOf(report({ read: 10, rejected: 5 }), 0.2).open.map((i) => i.kind)).toEqual(['rejected']);
    expect(rejectedShareOf(report({ read: 0, rejected: 0 }))).toBe(0);
  });
});

describe('incidentsOf: a tripped guard', () => {
  it('says how many deletes it held back, or that nothing was deleted or changed', () => {
    const texts = (extra: Partial<RunReport>) => incidentsOf(report(extra), 1).open.map((i) => i.text);
    expect(texts({ outcome: 'guarded', heldDeletes: 12 })).toEqual([
      'feed-sync: delete guard tripped for feed small: 12 deletes held back',
    ]);
    expect(
      texts({ outcome: 'guarded', heldDeletes: 0, reason: 'the feed yielded no valid listing' }),
    ).toEqual(['feed-sync: delete guard tripped for feed small: the feed yielded no valid listing']);
    expect(texts({ outcome: 'guarded', heldDeletes: 0 })).toEqual([
      'feed-sync: delete guard tripped for feed small: nothing deleted or changed',
    ]);
  });
});
