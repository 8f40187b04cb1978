import { describe, expect, it } from 'vitest';
import { listing } from '../testing/listing.ts';
import { changesOf } from './changes-of.ts';
import { briefOf, type DesiredListing } from './desired.ts';
import type { Plan } from './plan-types.ts';

const planned = (key: string, price: number) => ({
  desired: { key, mask: 0, digest: 0, ref: 0 } satisfies DesiredListing,
  brief: briefOf(listing(1, { MLSNumber: key, SalePrice: price })),
});

function plan(creates: number, updates: number, deletes: number): Plan {
  return {
    feedId: 'acme',
    chatbot: 'BOT',
    keyField: 'MLSNumber',
    mode: 'full',
    creates: Array.from({ length: creates }, (_, i) => ({
      key: `C${i}`,
      ...planned(`C${i}`, 100_000),
    })),
    updates: Array.from({ length: updates }, (_, i) => ({
      key: `U${i}`,
      id: 100 + i,
      ...planned(`U${i}`, 250_000),
      adopt: i === 1,
      changes: [
        { field: 'SalePrice', from: 300_000, to: 250_000 },
        { field: 'ExtensionColumn[feed-sync:hash]', from: 'a', to: 'b' },
      ],
    })),
    deletes: Array.from({ length: deletes }, (_, i) => ({
      key: `D${i}`,
      id: 200 + i,
      reason: 'gone' as const,
    })),
    heldDeletes: [],
    grace: [],
    goneSince: {},
    held: [],
    unchanged: [],
    foreign: [],
    skipped: [],
    guards: [],
    ownedCount: 0,
  };
}

describe('changesOf', () => {
  it('lists creates, updates with their fields old → new (no hash tag), deletes with the reason', () => {
    expect(changesOf(plan(1, 2, 1))).toEqual({
      changes: [
        { key: 'C0', op: 'create', summary: '1 Main St, Springfield · $100,000' },
        {
          key: 'U0',
          op: 'update',
          id: 100,
          fields: [{ field: 'SalePrice', from: 300_000, to: 250_000 }],
          currency: '$',
          areaUnit: 'Square Feet',
        },
        {
          key: 'U1',
          op: 'adopt',
          id: 101,
          fields: [{ field: 'SalePrice', from: 300_000, to: 250_000 }],
          currency: '$',
          areaUnit: 'Square Feet',
        },
        { key: 'D0', op: 'delete', id: 200, reason: 'gone' },
      ],
      omitted: 0,
    });
  });

  it('keeps at most `kept` changes and counts the rest', () => {
    const { changes, omitted } = changesOf(plan(3, 3, 3), 4);
    expect(changes.map((c) => c.key)).toEqual(['C0', 'C1', 'C2', 'U0']);
    expect(omitted).toBe(5);
  });
});

describe('changesOf: a create’s summary', () => {
  it('shows a rent a month, with its cents', () => {
    const plan = {
      creates: [
        {
          key: 'R-1',
          brief: {
            Address: '1 Rue',
            City: 'Nice',
            SaleType: 'for_rent',
            RentPrice: 3033.33,
            CurrencySymbol: '£',
          },
        },
      ],
      updates: [],
      deletes: [],
    };
    expect(changesOf(plan as never).changes[0]?.summary).toBe('1 Rue, Nice · £3,033.33 a month');
  });
});
