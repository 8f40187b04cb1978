import { describe, expect, it } from 'vitest';
import type { RemoteListing } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import { type FeedSide, type KeyPolicy, planKey, withTags } from '../reconcile/index.ts';
import { classifyKey } from './classify.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const policy: KeyPolicy = {
  feedId: 'acme',
  chatbot: 'BOT',
  keyField: 'MLSNumber',
  ownerKey: tags.ownerKey,
  hashKey: tags.hashKey,
  ownership: 'tagged',
  adopt: true,
  maxDeleteShare: 0.2,
  mode: 'full',
  gone: { action: 'delete', afterDays: 0 },
  goneSince: {},
  now: Date.parse('2026-11-25T00:00:00Z'),
};

const listing = (overrides: Partial<Listing> = {}): Listing => ({
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Condo',
  Bedrooms: 2,
  Bathrooms: 1,
  Url: 'https://acme.example/l/K-1',
  MLSNumber: 'K-1',
  YearBuilt: 1990,
  DaysOnMarket: 3,
  LotArea: 0,
  BuildingArea: 900,
  AreaUnit: 'Square Feet',
  ParkingSpots: 1,
  SalePrice: 300_000,
  ...overrides,
});

/** What the list returns of a listing stored by `owner` (AreaUnit is never returned). */
const stored = (id: number, owner: string | undefined, overrides: Partial<Listing> = {}): RemoteListing => {
  const { AreaUnit: _unit, ...rest } = owner ? withTags(listing(overrides), owner, tags) : listing(overrides);
  return { id, listing: rest };
};

const classify = (feed: FeedSide, remote: RemoteListing[], extra: Partial<KeyPolicy> = {}) =>
  classifyKey(planKey('K-1', feed, remote, { ...policy, ...extra }), 'K-1', remote);

describe('the plan of one key', () => {
  const inFeed: FeedSide = { kind: 'listing', listing: listing() };

  it('create, unchanged, update field by field, adopt', () => {
    expect(classify(inFeed, [])).toEqual([{ kind: 'create' }]);
    expect(classify(inFeed, [stored(5, 'acme')])).toEqual([{ kind: 'unchanged', id: 5 }]);
    const [update] = classify(inFeed, [stored(5, 'acme', { SalePrice: 350_000 })]);
    expect(update).toMatchObject({ kind: 'update', id: 5, adopt: false });
    expect(update?.kind === 'update' && update.changes[0]).toEqual({
      field: 'SalePrice',
      from: 350_000,
      to: 300_000,
    });
    expect(classify(inFeed, [stored(5, undefined)])).toMatchObject([{ kind: 'update', id: 5, adopt: true }]);
  });

  it('another feed’s listing is skipped, a hand-added one too with adopt: false; a duplicate is deleted', () => {
    expect(classify(inFeed, [stored(5, 'other')])).toEqual([
      { kind: 'skipped', id: 5, reason: 'owned-by-other-feed', owner: 'other' },
    ]);
    expect(classify(inFeed, [stored(5, undefined)], { adopt: false })).toEqual([
      { kind: 'skipped', id: 5, reason: 'adopt-disabled' },
    ]);
    expect(classify(inFeed, [stored(5, 'acme'), stored(6, 'acme')])).toEqual([
      { kind: 'unchanged', id: 5 },
      { kind: 'delete', id: 6, reason: 'duplicate' },
    ]);
  });

  it('a held record keeps its listing; a gone one is deleted, or kept in its grace, or marked Sold', () => {
    const held: FeedSide = {
      kind: 'held',
      held: { key: 'K-1', index: 4, row: 6, reason: 'not_a_number', message: 'Row 6 of a.csv: x' },
    };
    expect(classify(held, [stored(5, 'acme')])).toEqual([
      { kind: 'held', ids: [5], reason: 'not_a_number', message: 'Row 6 of a.csv: x' },
    ]);
    const absent: FeedSide = { kind: 'absent' };
    expect(classify(absent, [stored(5, 'acme')])).toMatchObject([{ kind: 'delete', id: 5, reason: 'gone' }]);
    expect(classify(absent, [stored(5, 'other')])).toEqual([{ kind: 'foreign', id: 5, owner: 'other' }]);
    const grace = {
      gone: { action: 'delete' as const, afterDays: 3 },
      goneSince: { 'K-1': '2026-11-24T00:00:00.000Z' },
    };
    expect(classify(absent, [stored(5, 'acme')], grace)).toEqual([
      {
        kind: 'grace',
        id: 5,
        reason: 'gone',
        since: '2026-11-24T00:00:00.000Z',
        until: '2026-11-27T00:00:00.000Z',
        action: 'delete',
      },
    ]);
    const over = { ...grace, now: Date.parse('2026-11-28T00:00:00Z') };
    expect(classify(absent, [stored(5, 'acme')], over)).toMatchObject([
      { kind: 'delete', id: 5, reason: 'gone', since: '2026-11-24T00:00:00.000Z' },
    ]);
    const sold = classify(absent, [stored(5, 'acme')], { gone: { action: 'markSold', afterDays: 30 } });
    expect(sold).toMatchObject([
      { kind: 'sold', id: 5, from: 'Active' },
      { kind: 'grace', id: 5, action: 'markSold' },
    ]);
  });

  it('a broken row whose text holds the key keeps its listing', () => {
    const brokenRows = [
      { index: 8, row: 10, where: 'the shifted row 10 of a.csv', cells: ['K-1', '12 Oak St'] },
    ];
    expect(classify({ kind: 'absent' }, [stored(5, 'acme')], { brokenRows })).toEqual([
      {
        kind: 'held',
        ids: [5],
        reason: 'in_broken_row',
        message: 'key appears in the shifted row 10 of a.csv',
      },
    ]);
  });
});
