import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../reconcile/index.ts';
import { guardedReason } from './sync.ts';

const guarded = (guard: string, heldDeletes: number) =>
  ({
    outcome: 'guarded',
    heldDeletes,
    guards: [{ guard, tripped: true, message: '' }],
  }) as unknown as RunReport;

describe('guardedReason', () => {
  it('says what the guards held, and that nothing was where nothing was to delete (a tester)', () => {
    expect(guardedReason([guarded('empty-feed', 0)])).toBe(
      'a guard tripped (empty-feed): no listing was to delete, none held; the report says why and what to do',
    );
    expect(guardedReason([guarded('max-delete-share', 4), guarded('mass-replace', 0)])).toBe(
      'a guard tripped (max-delete-share, mass-replace): 4 delete(s) held back and the replaces held back; the report says why and what to do',
    );
  });
});
