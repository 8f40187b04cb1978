import { describe, expect, it } from 'vitest';
import type { PlannedDelete } from './plan-types.ts';
import { itemsOf } from './planned-creates.ts';
import { DeleteColumns, duplicateDeletes, PlannedDeletes, PlannedGrace } from './planned-deletes.ts';

const EARLIER = '2026-11-01T00:00:00.000Z';
const NOW = '2026-11-10T00:00:00.000Z';

function found(): DeleteColumns {
  const columns = new DeleteColumns();
  columns.add('MLS-9', 90, 'gone', NOW);
  columns.add('Müllerstraße-7', 70, 'removed', EARLIER);
  columns.add('MLS-1', 12, 'duplicate');
  columns.add('MLS-1', 11, 'duplicate');
  columns.add('MLS-5', 50, 'gone', undefined, { ref: 7, from: 'Pending' });
  columns.add('MLS-4', 40, 'gone', NOW);
  return columns;
}

describe('DeleteColumns', () => {
  it('gives each delete back as it was added: key, ID, reason, since, and a mark as markSold', () => {
    expect([...found()]).toEqual<PlannedDelete[]>([
      { key: 'MLS-9', id: 90, reason: 'gone', since: NOW },
      { key: 'Müllerstraße-7', id: 70, reason: 'removed', since: EARLIER },
      { key: 'MLS-1', id: 12, reason: 'duplicate' },
      { key: 'MLS-1', id: 11, reason: 'duplicate' },
      { key: 'MLS-5', id: 50, reason: 'gone', action: 'markSold' },
      { key: 'MLS-4', id: 40, reason: 'gone', since: NOW },
    ]);
    const columns = found();
    expect(columns.markUpdateAt(4)).toEqual({
      key: 'MLS-5',
      id: 50,
      desired: { ref: 7 },
      changes: [{ field: 'Status', from: 'Pending', to: 'Sold' }],
      adopt: false,
      markSold: true,
    });
    expect(() => columns.markUpdateAt(0)).toThrow(RangeError);
    expect([columns.reasonAt(1), columns.isMark(4), columns.isMark(5), columns.keyAt(1)]).toEqual([
      'removed',
      true,
      false,
      'Müllerstraße-7',
    ]);
  });
});

describe('PlannedDeletes', () => {
  it('holds the picked deletes in key order, then ID, as the sorted array it replaces did', () => {
    const deletes = PlannedDeletes.inKeyOrder(found(), [0, 2, 3, 5, 1]);
    expect(Array.from(deletes, (d) => `${d.key}#${d.id}`)).toEqual([
      'MLS-1#11',
      'MLS-1#12',
      'MLS-4#40',
      'MLS-9#90',
      'Müllerstraße-7#70',
    ]);
    expect([deletes.length, deletes.at(-1)?.id, deletes.at(5), deletes.at(0)?.reason]).toEqual([
      5,
      70,
      undefined,
      'duplicate',
    ]);
    expect(JSON.parse(JSON.stringify({ deletes }))).toEqual({ deletes: [...deletes] });
  });

  it('counts the duplicates and cuts batches without making the others, as arrays do', () => {
    const deletes = PlannedDeletes.inKeyOrder(found(), [0, 2, 3, 5]);
    const asArray = [...deletes];
    expect([duplicateDeletes(deletes), duplicateDeletes(asArray)]).toEqual([2, 2]);
    expect(itemsOf(deletes, 2, 3)).toEqual(asArray.slice(2, 5));
    expect(itemsOf(asArray, 0, 3).map((d) => d.id)).toEqual([11, 12, 40]);
    expect(PlannedDeletes.inKeyOrder(found(), []).length).toBe(0);
  });

  it('keeps an owned listing without a key (it sorts first) beside keys of any script', () => {
    const columns = new DeleteColumns();
    for (const [key, id] of [
      ['東京-3', 3],
      ['', 2],
      ['MLS-1', 1],
      ['', 0],
    ] as const)
      columns.add(key, id, 'gone', NOW);
    const deletes = PlannedDeletes.inKeyOrder(columns, [0, 1, 2, 3]);
    expect(Array.from(deletes, (d) => [d.key, d.id])).toEqual([
      ['', 0],
      ['', 2],
      ['MLS-1', 1],
      ['東京-3', 3],
    ]);
  });
});

describe('PlannedGrace', () => {
  it('makes each listing in grace with its end from its start and the policy, in key order less the marks held back', () => {
    const columns = new DeleteColumns();
    columns.add('MLS-9', 90, 'gone', NOW);
    columns.add('MLS-2', 20, 'removed', EARLIER);
    columns.add('MLS-5', 50, 'gone', NOW);
    const found = PlannedGrace.of(columns, { action: 'markSold', afterDays: 3 });
    expect(Array.from(found, (g) => g.key)).toEqual(['MLS-9', 'MLS-2', 'MLS-5']);
    const grace = found.inKeyOrderWithout(new Set([50]));
    expect([...grace]).toEqual([
      {
        key: 'MLS-2',
        id: 20,
        reason: 'removed',
        since: EARLIER,
        until: '2026-11-04T00:00:00.000Z',
        action: 'markSold',
      },
      {
        key: 'MLS-9',
        id: 90,
        reason: 'gone',
        since: NOW,
        until: '2026-11-13T00:00:00.000Z',
        action: 'markSold',
      },
    ]);
    expect([grace.length, grace.at(-1)?.id, itemsOf(grace, 0, 1).map((g) => g.id)]).toEqual([2, 90, [20]]);
    expect(JSON.parse(JSON.stringify(grace))).toEqual([...grace]);
  });
});
