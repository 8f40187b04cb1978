import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { remote } from '../testing/list-record.ts';
import { listing, listings } from '../testing/listing.ts';
import { desiredOf } from './desired.ts';
import { DesiredIndex } from './desired-index.ts';
import { type PlanPolicy, planListings, withTags } from './index.ts';
import { desiredByKey, keyOf, makePlan } from './plan.ts';
import type { RemoteEntries } from './plan-types.ts';
import { changesIn, memoryRecords } from './record-store.ts';
import { remoteEntries } from './remote-entries.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const policy: PlanPolicy = {
  feedId: 'acme',
  chatbot: 'SN-1',
  keyField: 'MLSNumber',
  ownerKey: 'feed-sync:feed',
  ownership: 'tagged',
  adopt: true,
  maxDeleteShare: 0.2,
  mode: 'full',
};
const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
/** A listing as this feed would have stored it. */
const ours = (id: number, n: number, feedId = 'acme') => remote(id, withTags(listing(n), feedId, tags));
const summary = (p: ReturnType<typeof planListings>) => ({
  creates: Array.from(p.creates, (c) => c.key),
  updates: Array.from(p.updates, (u) => `${u.key}#${u.id}${u.adopt ? ' adopt' : ''}`),
  deletes: Array.from(p.deletes).map((d) => `${d.key}#${d.id} ${d.reason}`),
  held: Array.from(p.heldDeletes).map((d) => `${d.key}#${d.id} ${d.reason}`),
  unchanged: p.unchanged.length,
  foreign: Array.from(p.foreign, (f) => f.id),
  skipped: Array.from(p.skipped, (s) => `${s.key} ${s.reason}`),
});

describe('makePlan', () => {
  it('creates everything on an empty chatbot', () => {
    const plan = planListings(listings(1, 3), [], policy);
    expect(summary(plan).creates).toEqual(['MLS-0001', 'MLS-0002', 'MLS-0003']);
    expect(plan.load(plan.creates.at(0)!.desired).ExtensionColumn?.map((e) => e.Key)).toEqual([
      'feed-sync:feed',
      'feed-sync:hash',
    ]);
  });

  it('writes nothing when the remote equals the feed, whatever the list quirks', () => {
    const plan = planListings(
      listings(1, 5),
      [1, 2, 3, 4, 5].map((n) => ours(n, n)),
      policy,
    );
    expect(summary(plan)).toMatchObject({ creates: [], updates: [], deletes: [], unchanged: 5 });
  });

  it.each([
    ['a price', { SalePrice: 999_999 }, ['SalePrice']],
    ['the status', { Status: 'Sold' as const }, ['Status']],
    [
      'a field the list never returns (AreaUnit)',
      { AreaUnit: 'Square Meters' as const },
      ['ExtensionColumn[feed-sync:hash]'],
    ],
    ['Location, also never returned', { Location: 'Near the park' }, ['ExtensionColumn[feed-sync:hash]']],
  ])('updates by remote ID when %s changes', (_, change, fields) => {
    const plan = planListings([listing(1, change)], [ours(7, 1)], policy);
    expect(plan.updates).toHaveLength(1);
    expect(plan.updates.at(0)?.id).toBe(7);
    expect(plan.updates.at(0)?.changes.map((c) => c.field)).toEqual(expect.arrayContaining(fields));
  });

  it.each([
    ['price within a cent of rounding', { SalePrice: 251_000.334 }],
    ['whitespace around text', { City: '  Springfield ' }],
    ['coordinates past six decimals', { Latitude: 39.7801 + 1e-8 }],
  ])('ignores %s', (_, change) => {
    const plan = planListings([listing(1, change)], [remote(7, withTags(listing(1), 'acme', tags))], policy);
    expect(Array.from(plan.updates, (u) => u.changes)).toEqual([]);
  });

  it('does not compare fields the feed leaves unset', () => {
    // Someone wrote a description by hand; the feed has none, so it is not the feed's to clear.
    const stored = {
      ...withTags(listing(1, { Description: undefined }), 'acme', tags),
      Description: 'by hand',
    };
    const plan = planListings([listing(1, { Description: undefined })], [remote(7, stored)], policy);
    expect([...plan.updates]).toEqual([]);
  });

  it('is not sensitive to the order of ExtensionColumn entries', () => {
    const stored = withTags(listing(1, { ExtensionColumn: [{ Key: 'agent', value: 'Jo' }] }), 'acme', tags);
    const reversed = { ...stored, ExtensionColumn: [...(stored.ExtensionColumn ?? [])].reverse() };
    const plan = planListings(
      [listing(1, { ExtensionColumn: [{ Key: 'agent', value: 'Jo' }] })],
      [remote(3, reversed)],
      policy,
    );
    expect([...plan.unchanged]).toEqual(['MLS-0001']);
  });

  it('deletes what is gone from a full feed, and leaves foreign listings alone', () => {
    const hand = remote(99, listing(50));
    const plan = planListings(
      listings(1, 9),
      [...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ours(n, n)), hand],
      policy,
    );
    expect(summary(plan)).toMatchObject({ deletes: ['MLS-0010#10 gone'], foreign: [99], unchanged: 9 });
  });

  it('adopts a hand-added listing whose key is in the feed, or skips it with adopt: false', () => {
    const hand = remote(4, listing(1));
    expect(summary(planListings([listing(1)], [hand], policy)).updates).toEqual(['MLS-0001#4 adopt']);
    expect(summary(planListings([listing(1)], [hand], { ...policy, adopt: false }))).toMatchObject({
      creates: [],
      updates: [],
      skipped: ['MLS-0001 adopt-disabled'],
      foreign: [4],
    });
  });

  it('never touches listings of another feed on the same chatbot', () => {
    const theirs = [ours(1, 1, 'other'), ours(2, 2, 'other')];
    const plan = planListings([listing(2), listing(3)], theirs, policy);
    expect(summary(plan)).toMatchObject({
      creates: ['MLS-0003'],
      updates: [],
      deletes: [],
      skipped: ['MLS-0002 owned-by-other-feed'],
      foreign: [1, 2],
    });
  });

  it('adoptFrom: a former id of the feed (renamed) owns its listings: retagged even unchanged, deleted when gone', () => {
    const old = [ours(1, 1, 'acme-old'), ours(2, 2, 'acme-old'), ours(3, 3, 'other')];
    // Without it every key the old id holds is skipped, and nothing is ever written again.
    expect(summary(planListings([listing(1), listing(3)], old, policy))).toMatchObject({
      updates: [],
      unchanged: 0,
      skipped: ['MLS-0001 owned-by-other-feed', 'MLS-0003 owned-by-other-feed'],
      foreign: [1, 2, 3],
    });
    const plan = planListings([listing(1), listing(3)], old, {
      ...policy,
      adoptFrom: ['acme-old'],
      maxDeleteShare: 1,
    });
    expect(summary(plan)).toMatchObject({
      creates: [],
      // Unchanged in every field but its tag: written once, to carry the feed's id.
      updates: ['MLS-0001#1 adopt'],
      deletes: ['MLS-0002#2 gone'],
      unchanged: 0,
      skipped: ['MLS-0003 owned-by-other-feed'],
      foreign: [3],
    });
    expect(plan.updates.at(0)?.changes).toEqual([
      { field: 'ExtensionColumn[feed-sync:feed]', from: 'acme-old', to: 'acme' },
    ]);
    expect(plan.ownedCount).toBe(2);
  });

  it('adoptFrom on the wrong feed: a former id whose listings are mostly not in the feed has their deletes held', () => {
    // `p` was renamed, but `acme` (another feed) was given `adoptFrom: [p]`: none of p's keys are acme's.
    const platform = [ours(1, 1), ours(2, 2), ...[11, 12, 13].map((n) => ours(n, n, 'p'))];
    const wrong = planListings([listing(1), listing(2)], platform, {
      ...policy,
      adoptFrom: ['p'],
      maxDeleteShare: 1,
    });
    expect(summary(wrong)).toMatchObject({
      deletes: [],
      held: ['MLS-0011#11 gone', 'MLS-0012#12 gone', 'MLS-0013#13 gone'],
      unchanged: 2,
    });
    expect(wrong.guards.find((g) => g.guard === 'adopt-from')).toMatchObject({
      tripped: true,
      message: expect.stringContaining(
        'adoptFrom p: 0 of its 3 listing(s) are in this feed: the other 3 not deleted',
      ),
    });
    // The override lets them go; a real rename (most keys in the feed) deletes the few gone at once.
    const forced = planListings([listing(1), listing(2)], platform, {
      ...policy,
      adoptFrom: ['p'],
      maxDeleteShare: 1,
      allowMassDelete: true,
    });
    expect(summary(forced).deletes).toHaveLength(3);
    const renamed = planListings([listing(11), listing(12)], platform, {
      ...policy,
      adoptFrom: ['p'],
      maxDeleteShare: 1,
    });
    expect(summary(renamed)).toMatchObject({ updates: ['MLS-0011#11 adopt', 'MLS-0012#12 adopt'], held: [] });
    expect(summary(renamed).deletes).toContain('MLS-0013#13 gone');
    expect(renamed.guards.find((g) => g.guard === 'adopt-from')).toMatchObject({ tripped: false });
  });

  it("adoptFrom: a former id's listing whose grace ends after the adopting run is deleted, not held", () => {
    // Run 1 adopted MLS-0011 and MLS-0012 (now tagged acme) and found MLS-0013 gone: on the clock.
    const platform = [ours(11, 11), ours(12, 12), ours(13, 13, 'p')];
    const now = Date.parse('2026-11-10T00:00:00Z');
    const later = planListings([listing(11), listing(12)], platform, {
      ...policy,
      adoptFrom: ['p'],
      maxDeleteShare: 1,
      gone: { action: 'delete', afterDays: 2 },
      goneSince: { 'MLS-0013': '2026-11-07T00:00:00.000Z' },
      now,
    });
    expect(summary(later)).toMatchObject({ deletes: ['MLS-0013#13 gone'], held: [] });
    expect(later.guards.find((g) => g.guard === 'adopt-from')).toBeUndefined();
  });

  it('ownership: all owns untagged listings (and tags them), never another feed’s', () => {
    const plan = planListings(
      [listing(1)],
      [remote(1, listing(1)), remote(2, listing(2)), ours(3, 3, 'other')],
      {
        ...policy,
        ownership: 'all',
        maxDeleteShare: 1,
      },
    );
    expect(summary(plan)).toMatchObject({
      updates: ['MLS-0001#1 adopt'],
      deletes: ['MLS-0002#2 gone'],
      foreign: [3],
    });
  });

  it('keeps one of several remote duplicates (an unchanged one) and deletes the rest', () => {
    const stale = remote(3, withTags(listing(1, { SalePrice: 1 }), 'acme', tags));
    const plan = planListings([listing(1)], [stale, ours(5, 1), ours(8, 1)], policy);
    expect(summary(plan)).toMatchObject({
      updates: [],
      unchanged: 1,
      deletes: ['MLS-0001#3 duplicate', 'MLS-0001#8 duplicate'],
    });
  });

  it('deletes removed-status listings, and in incremental mode nothing else', () => {
    const remoteAll = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ours(n, n));
    const plan = planListings([listing(1)], remoteAll, {
      ...policy,
      mode: 'incremental',
      removals: ['MLS-0002'],
    });
    expect(summary(plan)).toMatchObject({ deletes: ['MLS-0002#2 removed'], unchanged: 1 });
    expect(plan.guards.map((g) => g.guard)).toContain('incremental');
  });

  it('holds deletes above maxDeleteShare, unless overridden; creates and updates still go', () => {
    const remoteAll = [1, 2, 3, 4, 5].map((n) => ours(n, n));
    const feed = [listing(1, { SalePrice: 5 }), listing(2), listing(6)];
    const plan = planListings(feed, remoteAll, policy);
    expect(summary(plan)).toMatchObject({
      creates: ['MLS-0006'],
      updates: ['MLS-0001#1'],
      deletes: [],
      held: ['MLS-0003#3 gone', 'MLS-0004#4 gone', 'MLS-0005#5 gone'],
    });
    expect(plan.guards.find((g) => g.guard === 'max-delete-share')?.tripped).toBe(true);
    const forced = planListings(feed, remoteAll, { ...policy, allowMassDelete: true });
    expect(summary(forced).deletes).toHaveLength(3);
    expect(forced.guards.find((g) => g.guard === 'max-delete-share')).toMatchObject({
      tripped: false,
      overridden: true,
    });
  });

  it('one listing leaving a tiny feed is no mass delete (a new user’s four homes); two of four are', () => {
    const four = [1, 2, 3, 4].map((n) => ours(n, n));
    expect(summary(planListings(listings(1, 3), four, policy))).toMatchObject({
      deletes: ['MLS-0004#4 gone'],
      held: [],
    });
    expect(summary(planListings(listings(1, 2), four, policy))).toMatchObject({
      deletes: [],
      held: ['MLS-0003#3 gone', 'MLS-0004#4 gone'],
    });
  });

  it('holds the deletes of a big feed that halved or came back empty, and deletes them when allowed (300k: no stack overflow)', () => {
    const n = 300_000;
    // The feed's one record is listing 0's; the other listings are this feed's and gone.
    const entries: RemoteEntries = {
      length: n,
      idAt: (i) => i + 1,
      keyAt: (i) => `K-${String(i).padStart(7, '0')}`,
      ownerAt: () => 'acme',
      refAt: (i) => (i === 0 ? 0 : -1),
      changesAt: (i) => (i === 0 ? [] : undefined),
      differsAt: () => false,
    };
    const desired = desiredByKey([{ key: 'K-0000000', mask: 0, digest: 0, ref: 0 }]);
    const held = makePlan(desired, entries, { ...policy, maxDeleteShare: 0.5 });
    expect([held.deletes.length, held.heldDeletes.length, held.unchanged.length]).toEqual([0, n - 1, 1]);
    expect(held.heldDeletes.at(-1)).toEqual({
      key: 'K-0299999',
      id: n,
      reason: 'gone',
      since: expect.any(String),
    });
    const allowed = makePlan(desired, entries, { ...policy, allowMassDelete: true });
    expect([allowed.deletes.length, allowed.heldDeletes.length]).toEqual([n - 1, 0]);
    // The same chatbot when the feed comes back empty: every delete held, by the empty-feed guard.
    const empty = makePlan(desiredByKey([]), { ...entries, refAt: () => -1 }, policy);
    expect([empty.deletes.length, empty.heldDeletes.length]).toEqual([0, n]);
    expect(empty.guards.find((g) => g.guard === 'empty-feed')).toMatchObject({
      tripped: true,
      message: expect.stringMatching(
        /held back; fix the feed or its mapping \(`feed-sync validate --feed \S+` says what its records lack\)$/,
      ),
    });
  });

  it('deletes the removals a feed states beside maxDeleteShare (a small feed selling 2 of 5), in full and incremental mode', () => {
    const remoteAll = [1, 2, 3, 4, 5].map((n) => ours(n, n));
    const removals = ['MLS-0003', 'MLS-0004'];
    // 40% of the owned listings, over the 20% share: stated by the feed, they go. The one gone
    // from the feed is 20%, within the share: it goes too.
    const full = planListings(listings(1, 2), remoteAll, { ...policy, removals });
    expect(summary(full)).toMatchObject({
      deletes: ['MLS-0003#3 removed', 'MLS-0004#4 removed', 'MLS-0005#5 gone'],
      held: [],
    });
    expect(full.guards.find((g) => g.guard === 'removed-by-feed')).toMatchObject({
      tripped: false,
      message: expect.stringContaining('deleting the 2 listing(s) the feed says are removed'),
    });
    const incremental = planListings(listings(1, 1), remoteAll, { ...policy, mode: 'incremental', removals });
    expect(summary(incremental)).toMatchObject({
      deletes: ['MLS-0003#3 removed', 'MLS-0004#4 removed'],
      held: [],
    });
    expect(incremental.guards.find((g) => g.guard === 'max-delete-share')).toBeUndefined();
  });

  it('holds stated removals beyond a share of their own (a status map gone wrong), and what is gone beside them', () => {
    const remoteAll = Array.from({ length: 20 }, (_, i) => ours(i + 1, i + 1));
    // 6 of 20 stated removed: more than 20% of them and more than 5 — a catch-all map read a CRM's renamed status.
    const removals = [2, 3, 4, 5, 6, 7].map((n) => `MLS-${String(n).padStart(4, '0')}`);
    const plan = planListings([listing(1), ...listings(8, 19)], remoteAll, { ...policy, removals });
    expect(summary(plan).deletes).toEqual([]);
    expect(summary(plan).held).toHaveLength(7);
    expect(plan.guards.find((g) => g.guard === 'removed-by-feed')).toBeUndefined();
    expect(plan.guards.find((g) => g.guard === 'max-delete-share')).toMatchObject({
      tripped: true,
      message: expect.stringContaining(
        '7 of 20 owned listings (35%; limit 20%, 6 of them removals the feed states (more than 5: counted))',
      ),
    });
    // Stated removals within their share go even when what is gone beside them trips the share.
    const five = Array.from({ length: 5 }, (_, i) => ours(i + 1, i + 1));
    const gone = planListings(listings(1, 1), five, { ...policy, removals: ['MLS-0002'] });
    expect(summary(gone)).toMatchObject({
      deletes: ['MLS-0002#2 removed'],
      held: ['MLS-0003#3 gone', 'MLS-0004#4 gone', 'MLS-0005#5 gone'],
    });
  });

  it('a CSV read to the connection’s close: gone deletes wait above 5% of the owned listings; the everyday run, within it, deletes', () => {
    const remoteAll = Array.from({ length: 40 }, (_, i) => ours(i + 1, i + 1));
    // 2 of 40 gone (5%): deleted, said ok.
    const everyday = planListings(listings(1, 38), remoteAll, { ...policy, unframed: true });
    expect(summary(everyday)).toMatchObject({ deletes: ['MLS-0039#39 gone', 'MLS-0040#40 gone'], held: [] });
    expect(everyday.guards.find((g) => g.guard === 'unframed-body')).toMatchObject({ tripped: false });
    // 6 of 40 gone (15%, under maxDeleteShare): a body cut at a row's end. Held; the removal goes.
    const cut = planListings(listings(2, 34), remoteAll, {
      ...policy,
      unframed: true,
      removals: ['MLS-0001'],
    });
    expect(summary(cut).held).toHaveLength(6);
    expect(summary(cut).deletes).toEqual(['MLS-0001#1 removed']);
    expect(cut.guards.find((g) => g.guard === 'unframed-body')).toMatchObject({
      tripped: true,
      message: expect.stringContaining("read to the connection's close"),
    });
    expect(
      summary(planListings(listings(1, 34), remoteAll, { ...policy, unframed: true, allowMassDelete: true }))
        .deletes,
    ).toHaveLength(6);
    // A small brokerage's one sale a day (1 of 19, over 5%) goes: no more than 2 need no override.
    const small = Array.from({ length: 19 }, (_, i) => ours(i + 1, i + 1));
    expect(summary(planListings(listings(1, 18), small, { ...policy, unframed: true })).deletes).toEqual([
      'MLS-0019#19 gone',
    ]);
    // A framed body: the share guard alone, as ever.
    expect(summary(planListings(listings(1, 34), remoteAll, policy)).deletes).toHaveLength(6);
  });

  it('says a removal the feed states for a listing another feed owns, and leaves it (a new user’s OpenImmo TEIL file)', () => {
    const remoteAll = [ours(1, 1), ours(2, 2), ours(3, 3, 'oi'), remote(4, listing(4))];
    const plan = planListings(listings(1, 2), remoteAll, {
      ...policy,
      mode: 'incremental',
      removals: ['MLS-0003', 'MLS-0004'],
    });
    expect(summary(plan).deletes).toEqual([]);
    expect(plan.removalsElsewhere).toEqual({ count: 2, owners: ['oi', ''] });
    expect(planListings(listings(1, 2), remoteAll, policy).removalsElsewhere).toBeUndefined();
  });

  it.each([
    ['an empty feed', [], {}, 'empty-feed'],
    ['a failed source', listings(1, 1), { sourceFailed: true }, 'source-failed'],
  ])('deletes nothing after %s', (_, feed, extra, guard) => {
    const plan = planListings(
      feed,
      [1, 2, 3].map((n) => ours(n, n)),
      { ...policy, ...extra, maxDeleteShare: 1 },
    );
    expect(Array.from(plan.deletes)).toEqual([]);
    expect(plan.heldDeletes.length).toBeGreaterThan(0);
    expect(plan.guards.find((g) => g.guard === guard)?.tripped).toBe(true);
  });

  it('deletes what is gone beside a rejected record without a key: it holds nothing', () => {
    const remoteAll = [1, 2, 3, 4, 5].map((n) => ours(n, n));
    const removals = ['MLS-0004'];
    // 1 of 5 records read has no key: 20%, not more than maxDeleteShare.
    const plan = planListings(listings(1, 3), remoteAll, {
      ...policy,
      maxDeleteShare: 0.5,
      removals,
      unkeyedRejections: 1,
      recordsRead: 5,
    });
    expect(summary(plan)).toMatchObject({
      deletes: ['MLS-0004#4 removed', 'MLS-0005#5 gone'],
      held: [],
    });
    expect(plan.guards.find((g) => g.guard === 'unkeyed-rejections')).toMatchObject({ tripped: false });
  });

  it('holds gone deletes when more than maxDeleteShare of the records have no key (a broken export)', () => {
    const remoteAll = [1, 2, 3, 4, 5].map((n) => ours(n, n));
    const removals = ['MLS-0004'];
    const untrusted = { ...policy, maxDeleteShare: 0.5, removals, unkeyedRejections: 4, recordsRead: 7 };
    const plan = planListings(listings(1, 3), remoteAll, untrusted);
    // The removed-status delete names its key: it goes. The one gone from the feed waits.
    expect(summary(plan)).toMatchObject({ deletes: ['MLS-0004#4 removed'], held: ['MLS-0005#5 gone'] });
    expect(plan.guards.find((g) => g.guard === 'unkeyed-rejections')).toMatchObject({
      tripped: true,
      message: expect.stringContaining('4 of 7 record(s) (57.1%) have no readable key'),
    });
    const overridden = planListings(listings(1, 3), remoteAll, { ...untrusted, allowMassDelete: true });
    expect(summary(overridden).deletes).toEqual(['MLS-0004#4 removed', 'MLS-0005#5 gone']);
    // Broken rows beyond what a run keeps could be any listing: the same guard.
    const omitted = planListings(listings(1, 3), remoteAll, {
      ...policy,
      maxDeleteShare: 1,
      brokenRowsOmitted: 3,
    });
    expect(summary(omitted).held).toEqual(['MLS-0004#4 gone', 'MLS-0005#5 gone']);
    // What to fix is the rows: the override would let listings whose rows are broken go too.
    expect(omitted.guards.find((g) => g.guard === 'unkeyed-rejections')?.message).toMatch(
      /^3 broken row\(s\) beyond the 0 a run keeps could be any listing: 2 listing\(s\) gone from the feed not deleted; fix the rows \(`feed-sync validate --feed \S+` lists them\)\. --allow-mass-delete would let all 2 go, those whose rows are broken included$/,
    );
  });

  it('holds a listing whose key appears in a shifted row, and deletes the others gone', () => {
    const remoteAll = [1, 2, 3, 4, 5].map((n) => ours(n, n));
    const shifted = {
      index: 3,
      row: 5,
      where: 'the shifted row 5 of feed.csv',
      cells: ['Condo', ' loft', 'MLS-0004', '300000'],
    };
    const plan = planListings(listings(1, 3), remoteAll, {
      ...policy,
      maxDeleteShare: 1,
      unkeyedRejections: 1,
      recordsRead: 5,
      brokenRows: [shifted],
    });
    expect(summary(plan)).toMatchObject({ deletes: ['MLS-0005#5 gone'], held: [] });
    expect([...plan.held]).toEqual([
      {
        key: 'MLS-0004',
        index: 3,
        row: 5,
        reason: 'in_broken_row',
        message: 'key appears in the shifted row 5 of feed.csv',
        ids: [4],
      },
    ]);
  });

  it('an incremental feed applies the gone policy to its removals, on later runs too', () => {
    const remoteAll = [1, 2, 3].map((n) => ours(n, n));
    const now = Date.parse('2026-11-10T00:00:00Z');
    const incremental = {
      ...policy,
      mode: 'incremental' as const,
      maxDeleteShare: 1,
      gone: { action: 'delete' as const, afterDays: 2 },
      now,
    };
    // Run 1 names MLS-0003 removed: kept two days, on the clock.
    const first = planListings([], remoteAll, { ...incremental, removals: ['MLS-0003'] });
    expect(summary(first).deletes).toEqual([]);
    expect(Array.from(first.grace).map((g) => `${g.key} ${g.reason}`)).toEqual(['MLS-0003 removed']);
    expect(first.goneSince).toEqual({ 'MLS-0003': '2026-11-10T00:00:00.000Z' });
    // Run 2, a day later, does not name it again: still leaving, still kept.
    const second = planListings([], remoteAll, {
      ...incremental,
      goneSince: first.goneSince,
      now: now + 86_400_000,
    });
    expect(Array.from(second.grace).map((g) => g.key)).toEqual(['MLS-0003']);
    // Run 3, after the grace: deleted, though the feed said nothing more about it.
    const third = planListings([], remoteAll, {
      ...incremental,
      goneSince: first.goneSince,
      now: now + 2 * 86_400_000,
    });
    expect(summary(third).deletes).toEqual(['MLS-0003#3 removed']);
    // Back in an incremental feed meanwhile: not leaving any more, off the clock.
    const back = planListings(listings(3, 3), remoteAll, { ...incremental, goneSince: first.goneSince });
    expect(Array.from(back.grace)).toEqual([]);
    expect(back.goneSince).toEqual({});
  });

  it('matches by Url when the feed says so', () => {
    const moved = listing(1, { MLSNumber: 'NEW-1' });
    const plan = planListings([moved], [ours(1, 1)], { ...policy, keyField: 'Url' });
    expect(plan.updates.at(0)?.changes.map((c) => c.field)).toContain('MLSNumber');
  });
});

describe('makePlan: held keys (a rejected record never costs its listing)', () => {
  const heldKey = (key: string) => ({ key, index: 0, reason: 'not_a_number', message: `${key}: bad price` });

  it('keeps the listing of a rejected record: no update, no delete, reported as held', () => {
    const remoteListings = [1, 2, 3, 4, 5].map((n) => ours(n, n));
    const plan = planListings(listings(1, 4), remoteListings, { ...policy, held: [heldKey('MLS-0005')] });
    expect(summary(plan)).toMatchObject({ creates: [], updates: [], deletes: [], held: [], unchanged: 4 });
    expect([...plan.held]).toEqual([{ ...heldKey('MLS-0005'), ids: [5] }]);
    // Without the held key the same plan deletes it: the test would fail without the fix.
    expect(summary(planListings(listings(1, 4), remoteListings, policy)).deletes).toEqual([
      'MLS-0005#5 gone',
    ]);
  });

  it('does not count held listings as deletes for the guard', () => {
    const remoteListings = [1, 2, 3, 4, 5].map((n) => ours(n, n));
    const held = ['MLS-0002', 'MLS-0003', 'MLS-0004', 'MLS-0005'].map(heldKey);
    const plan = planListings(listings(1, 1), remoteListings, { ...policy, held });
    expect(summary(plan)).toMatchObject({ deletes: [], held: [] });
    expect(plan.guards.some((g) => g.tripped)).toBe(false);
    expect([...plan.held].map((h) => h.ids)).toEqual([[2], [3], [4], [5]]);
  });

  it('wins over an earlier valid record of the same key, and holds remote duplicates too', () => {
    const plan = planListings([listing(1, { SalePrice: 1 })], [ours(1, 1), ours(9, 1)], {
      ...policy,
      held: [heldKey('MLS-0001')],
    });
    expect(summary(plan)).toMatchObject({ creates: [], updates: [], deletes: [], unchanged: 0 });
    expect(plan.held.at(0)?.ids).toEqual([1, 9]);
  });

  it('holds a key that is not on the platform yet: nothing is created', () => {
    const plan = planListings([], [], { ...policy, held: [heldKey('MLS-0042')] });
    expect([...plan.creates]).toEqual([]);
    expect([...plan.held]).toEqual([{ ...heldKey('MLS-0042'), ids: [] }]);
  });
});

/** A plan as a run makes it (changes in the run's store), and a weak reference to its remote entries. */
function planOnce() {
  const store = memoryRecords();
  const index = new DesiredIndex();
  const feed = [listing(1, { SalePrice: 500_000 }), listing(2), listing(3, { SalePrice: 1 })];
  index.keep(feed.map((l) => index.add(desiredOf(l, keyOf(l, 'MLSNumber') ?? '', 'acme', tags, store))));
  const loader = { load: (entry: { ref: number }) => store.get(entry.ref) };
  const sink = remoteEntries('MLSNumber', tags, index, loader, undefined, changesIn(store));
  for (const n of [1, 2, 3]) sink.keep(1, ours(10 + n, n));
  const { listings } = sink.finish();
  return { plan: makePlan(index, listings, policy), entries: new WeakRef(listings) };
}

describe('a plan and the remote entries it was made from', () => {
  it('lets go of the entries once made: its creates, updates and unchanged keys read the feed and the store', async () => {
    const { plan, entries } = planOnce();
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(entries.deref()).toBeUndefined();
    expect(Array.from(plan.updates, (u) => [u.key, u.id, u.changes.map((c) => c.field)])).toEqual([
      ['MLS-0001', 11, ['SalePrice', 'ExtensionColumn[feed-sync:hash]']],
      ['MLS-0003', 13, ['SalePrice', 'ExtensionColumn[feed-sync:hash]']],
    ]);
    expect(plan.unchanged.length).toBe(1);
  });
});

describe('listings created without the coordinates the feed sets on others (createdUnset)', () => {
  const bare = (n: number) => listing(n, { Latitude: undefined, Longitude: undefined });
  /** As the last run created it, and as the platform holds it once its geocoder has filled it. */
  const created = (id: number, n: number) => remote(id, withTags(bare(n), 'acme', tags));
  const geocoded = (id: number, n: number) =>
    remote(id, { ...withTags(bare(n), 'acme', tags), Latitude: 39.7, Longitude: -89.6 });
  const notes = (p: ReturnType<typeof planListings>) => [p.createdUnset, p.clearedNotes];

  it('notes a create that leaves them unset, none that sets them', () => {
    const plan = planListings([bare(1), ...listings(2, 3)], [], policy);
    expect(notes(plan)).toEqual([['MLS-0001'], undefined]);
  });

  it('keeps the note while the geocoder has not filled the listing; once filled, not replaced, the note a kept one', () => {
    const feed = [bare(1), ...listings(2, 3)];
    const others = [ours(12, 2), ours(13, 3)];
    const late = planListings(feed, [created(11, 1), ...others], { ...policy, createdUnset: ['MLS-0001'] });
    expect([summary(late).updates, late.unchanged.length]).toEqual([[], 3]);
    expect(notes(late)).toEqual([['MLS-0001'], undefined]);
    const filled = planListings(feed, [geocoded(11, 1), ...others], {
      ...policy,
      createdUnset: ['MLS-0001'],
    });
    expect([summary(filled).updates, filled.unchanged.length]).toEqual([[], 3]);
    expect(notes(filled)).toEqual([undefined, { 'MLS-0001': ['Latitude', 'Longitude'] }]);
    // Without the note, the listing is replaced to clear what the feed leaves unset.
    const unnoted = planListings(feed, [geocoded(11, 1), ...others], policy);
    expect(Array.from(unnoted.updates, (u) => [u.key, u.replace !== undefined])).toEqual([
      ['MLS-0001', true],
    ]);
  });

  it('a filled listing whose record changed too is updated, not replaced', () => {
    const feed = [listing(1, { Latitude: undefined, Longitude: undefined, SalePrice: 1 }), ...listings(2, 3)];
    const plan = planListings(feed, [geocoded(11, 1), ours(12, 2), ours(13, 3)], {
      ...policy,
      createdUnset: ['MLS-0001'],
    });
    expect(Array.from(plan.updates, (u) => [u.key, u.replace !== undefined])).toEqual([['MLS-0001', false]]);
  });

  it('drops the note once the feed sets them on the record, or the key leaves a full read', () => {
    const plan = planListings(listings(1, 3), [created(11, 1), ours(12, 2), ours(13, 3)], {
      ...policy,
      createdUnset: ['MLS-0001', 'MLS-0009'],
    });
    expect(notes(plan)).toEqual([undefined, undefined]);
  });

  it('an incremental read keeps the notes of keys it did not read, not of those the feed removed, and notes its creates', () => {
    const incremental = { ...policy, mode: 'incremental' as const, removals: ['MLS-0008'] };
    const plan = planListings([bare(4), listing(2)], [created(11, 1), ours(12, 2)], {
      ...incremental,
      createdUnset: ['MLS-0001', 'MLS-0008'],
    });
    expect(summary(plan).creates).toEqual(['MLS-0004']);
    expect(notes(plan)).toEqual([['MLS-0004', 'MLS-0001'], undefined]);
  });
});
