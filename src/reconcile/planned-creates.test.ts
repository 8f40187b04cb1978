import { describe, expect, it } from 'vitest';
import { createsKey, inStoreOrder, PlannedCreates } from './planned-creates.ts';

const KEYS = ['MLS-3', 'MLS-1', 'MLS-2', 'Ä-9', 'MLS-10'];
/** Record `ref` has key KEYS[ref]; counts the keys made, which must not be kept. */
function index() {
  let made = 0;
  return {
    keyAt: (ref: number) => {
      made++;
      return KEYS[ref] as string;
    },
    made: () => made,
  };
}

describe('PlannedCreates', () => {
  it('holds the creates in key order, as the sorted array of objects it replaces did', () => {
    const { keyAt } = index();
    const creates = PlannedCreates.inKeyOrder([0, 1, 2, 3, 4], keyAt);
    const expected = [...KEYS.keys()]
      .map((ref) => ({ key: KEYS[ref] as string, desired: { ref } }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    expect(creates.length).toBe(5);
    expect([...creates]).toEqual(expected);
    expect(creates.toJSON()).toEqual(expected);
    expect(JSON.parse(JSON.stringify({ creates }))).toEqual({ creates: expected });
    expect(creates.at(0)).toEqual({ key: 'MLS-1', desired: { ref: 1 } });
    expect(creates.at(-1)).toEqual({ key: 'Ä-9', desired: { ref: 3 } });
    expect(creates.at(5)).toBeUndefined();
    expect(creates.at(-6)).toBeUndefined();
  });

  it('makes a key only when a create is read, and keeps none', () => {
    const { keyAt, made } = index();
    const creates = PlannedCreates.inKeyOrder([2, 0], keyAt);
    const afterSort = made();
    expect(afterSort).toBe(2);
    expect(creates.at(1)?.key).toBe('MLS-3');
    expect(creates.at(1)?.key).toBe('MLS-3');
    expect(made()).toBe(afterSort + 2);
  });

  it('carries a brief on the first creates only, without changing the others', () => {
    const { keyAt } = index();
    const creates = PlannedCreates.inKeyOrder([0, 1, 2], keyAt);
    const described = creates.withBriefs(2, (ref) => ({ City: `city ${ref}` }));
    expect([...described]).toEqual([
      { key: 'MLS-1', desired: { ref: 1 }, brief: { City: 'city 1' } },
      { key: 'MLS-2', desired: { ref: 2 }, brief: { City: 'city 2' } },
      { key: 'MLS-3', desired: { ref: 0 } },
    ]);
    expect(creates.at(0)).not.toHaveProperty('brief');
    expect(creates.withBriefs(10, () => ({})).length).toBe(3);
  });

  it('gives its creates for applying in the order their records were kept, of the plan or of an array', () => {
    const { keyAt } = index();
    const creates = PlannedCreates.inKeyOrder([4, 2, 0, 3], keyAt);
    const expected = [0, 2, 3, 4].map((ref) => ({ key: KEYS[ref] as string, desired: { ref } }));
    expect([...inStoreOrder(creates)]).toEqual(expected);
    expect([...inStoreOrder([...creates])]).toEqual(expected);
    expect([...creates].map((c) => c.desired.ref)).toEqual([4, 2, 0, 3]);
  });

  it('is empty when nothing is created', () => {
    const creates = PlannedCreates.inKeyOrder([], index().keyAt);
    expect(creates.length).toBe(0);
    expect([...creates]).toEqual([]);
    expect(creates.at(0)).toBeUndefined();
  });

  it('finds a key among the creates, of the plan or of an array', () => {
    const creates = PlannedCreates.inKeyOrder([0, 1], index().keyAt);
    expect(createsKey(creates, 'MLS-3')).toBe(true);
    expect(createsKey(creates, 'MLS-2')).toBe(false);
    expect(createsKey([{ key: 'A', desired: { ref: 0 } }], 'A')).toBe(true);
  });
});
