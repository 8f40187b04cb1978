import { describe, expect, it } from 'vitest';
import type { FieldChange, PlannedUpdate } from './plan-types.ts';
import { DeleteColumns } from './planned-deletes.ts';
import { PlannedUpdates, UpdatesBuilder, updateCounts } from './planned-updates.ts';

const KEYS = ['MLS-3', 'MLS-1', 'MLS-2'];
/** Record `ref` has key KEYS[ref]; the remote listing at position p changed its price to p. */
function sources() {
  const read: number[] = [];
  return {
    keyAt: (ref: number) => KEYS[ref] as string,
    changesAt: (position: number): readonly FieldChange[] => {
      read.push(position);
      return [{ field: 'SalePrice', from: 1, to: position }];
    },
    read,
  };
}

const sold: PlannedUpdate = {
  key: 'MLS-0',
  id: 99,
  desired: { ref: 7 },
  changes: [{ field: 'Status', from: 'Active', to: 'Sold' }],
  adopt: false,
  markSold: true,
};

function plan() {
  const s = sources();
  const builder = new UpdatesBuilder(s);
  builder.add(0, 30, 5, false);
  builder.add(1, 12, 6, true);
  builder.addWhole(sold);
  builder.add(2, 21, 8, false);
  builder.add(1, 11, 9, false);
  return { updates: builder.finish(), read: s.read };
}

describe('PlannedUpdates', () => {
  it('holds the updates in key order, then ID, as the sorted array of objects it replaces did', () => {
    const { updates } = plan();
    expect(updates.length).toBe(5);
    expect([...updates]).toEqual([
      sold,
      {
        key: 'MLS-1',
        id: 11,
        desired: { ref: 1 },
        changes: [{ field: 'SalePrice', from: 1, to: 9 }],
        adopt: false,
      },
      {
        key: 'MLS-1',
        id: 12,
        desired: { ref: 1 },
        changes: [{ field: 'SalePrice', from: 1, to: 6 }],
        adopt: true,
      },
      {
        key: 'MLS-2',
        id: 21,
        desired: { ref: 2 },
        changes: [{ field: 'SalePrice', from: 1, to: 8 }],
        adopt: false,
      },
      {
        key: 'MLS-3',
        id: 30,
        desired: { ref: 0 },
        changes: [{ field: 'SalePrice', from: 1, to: 5 }],
        adopt: false,
      },
    ]);
    expect(updates.at(-1)?.id).toBe(30);
    expect(updates.at(5)).toBeUndefined();
    expect(JSON.parse(JSON.stringify({ updates })).updates).toEqual([...updates]);
  });

  it("reads an update's changes only when they are read, never to apply or count it", () => {
    const { updates, read } = plan();
    const ids = Array.from(updates, (u) => `${u.key}#${u.id}:${u.desired.ref}`);
    expect(ids).toEqual(['MLS-0#99:7', 'MLS-1#11:1', 'MLS-1#12:1', 'MLS-2#21:2', 'MLS-3#30:0']);
    expect(updateCounts(updates)).toEqual({ adopted: 1, markedSold: 1, replaced: 0 });
    expect(read).toEqual([]);
    expect(updates.at(2)?.changes).toEqual([{ field: 'SalePrice', from: 1, to: 6 }]);
    expect(read).toEqual([6]);
  });

  it('keeps the briefs and the changes of the first updates, read once, for after the records close', () => {
    const { updates, read } = plan();
    const described = updates.withBriefs(2, (ref) => ({ City: `city ${ref}` }));
    expect(read).toEqual([9]);
    expect(described.at(0)).toEqual({ ...sold, brief: { City: 'city 7' } });
    expect(described.at(1)).toMatchObject({ brief: { City: 'city 1' }, changes: [{ to: 9 }] });
    expect(described.at(2)).not.toHaveProperty('brief');
    expect(read).toEqual([9]);
    expect(described.at(2)?.changes).toEqual([{ field: 'SalePrice', from: 1, to: 6 }]);
    expect(read).toEqual([9, 6]);
    expect(described).toBeInstanceOf(PlannedUpdates);
  });

  it("holds the plan's marks Sold as their numbers among its deletes, each made when read, in key order", () => {
    const marks = new DeleteColumns();
    marks.add('MLS-9', 90, 'gone', '2026-11-10T00:00:00.000Z');
    marks.add('MLS-15', 150, 'gone', undefined, { ref: 40, from: 'Active' });
    const builder = new UpdatesBuilder(sources());
    builder.add(2, 21, 8, false);
    builder.addMark(marks, 1);
    const updates = builder.finish().withBriefs(1, (ref) => ({ City: `city ${ref}` }));
    expect(updates.at(0)).toEqual({
      key: 'MLS-15',
      id: 150,
      desired: { ref: 40 },
      changes: [{ field: 'Status', from: 'Active', to: 'Sold' }],
      adopt: false,
      markSold: true,
      brief: { City: 'city 40' },
    });
    expect(Array.from(updates, (u) => u.key)).toEqual(['MLS-15', 'MLS-2']);
    expect(updateCounts(updates)).toEqual({ adopted: 0, markedSold: 1, replaced: 0 });
  });

  it('counts adoptions and Sold marks of an array as well', () => {
    expect(updateCounts([sold, { ...sold, markSold: undefined, adopt: true }])).toEqual({
      adopted: 1,
      markedSold: 1,
      replaced: 0,
    });
    expect(new UpdatesBuilder(sources()).finish().length).toBe(0);
  });
});
