import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../reconcile/index.ts';
import { guardedReason } from './sync.ts';

const guarded = (guard: string, heldDeletes: number, feedId = 'acme') =>
  ({
    feedId,
    outcome: 'guarded',
    heldDeletes,
    guards: [{ guard, tripped: true, message: '' }],
  }) as unknown as RunReport;

describe('guardedReason', () => {
  it('says what the guards held, and that nothing was where nothing was to delete (a tester)', () => {
    expect(guardedReason([guarded('empty-feed', 0)])).toBe(
      'a guard tripped (empty-feed: no delete held back); the report says why and what to do',
    );
    expect(guardedReason([guarded('max-delete-share', 4)])).toBe(
      'a guard tripped (max-delete-share: 4 listing(s) kept that it would delete or mark Sold); the report says why and what to do',
    );
  });

  it('names each feed whose guard tripped, and only those, in a run of several (a reviewer)', () => {
    const ok = { feedId: 'calm', outcome: 'ok', heldDeletes: 0, guards: [] } as unknown as RunReport;
    expect(guardedReason([guarded('max-delete-share', 4), ok])).toBe(
      'a guard tripped (acme: max-delete-share: 4 listing(s) kept that it would delete or mark Sold); the report says why and what to do',
    );
    expect(guardedReason([guarded('max-delete-share', 4), ok, guarded('mass-replace', 0, 'beta')])).toBe(
      'guards tripped (acme: max-delete-share: 4 listing(s) kept that it would delete or mark Sold; beta: mass-replace: its replaces held back); the report says why and what to do',
    );
  });
});
