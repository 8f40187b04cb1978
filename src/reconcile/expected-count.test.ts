import { describe, expect, it } from 'vitest';
import { expectedCountOf } from './prepare-run.ts';

describe('expectedCountOf: the listings the last run left, by its report', () => {
  it('is what it found, plus what it created, less what it deleted', () => {
    expect(expectedCountOf({ snapshot: { remoteCount: 0 }, created: 9950, deleted: 0 })).toBe(9950);
    expect(expectedCountOf({ snapshot: { remoteCount: 9950 }, created: 10, deleted: 60 })).toBe(9900);
    expect(expectedCountOf({ snapshot: { remoteCount: 5 }, created: 0, deleted: 9 })).toBe(0);
  });

  it('is unknown where the report does not tell (no snapshot: a failed or skipped run, an old report)', () => {
    expect(expectedCountOf(undefined)).toBeUndefined();
    expect(expectedCountOf({ outcome: 'failed', created: 0 })).toBeUndefined();
    expect(expectedCountOf({ snapshot: { remoteCount: 'many' } })).toBeUndefined();
    expect(expectedCountOf({ snapshot: { remoteCount: -1 } })).toBeUndefined();
    expect(expectedCountOf('not a report')).toBeUndefined();
    // Counts that are not counts add nothing.
    expect(expectedCountOf({ snapshot: { remoteCount: 7 }, created: 'x', deleted: null })).toBe(7);
  });
});
