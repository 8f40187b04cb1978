import { afterEach, describe, expect, it } from 'vitest';
import {
  AmbiguousCreateError,
  type PlatformClient,
  PlatformError,
  TimeoutError,
} from '../../src/api/index.ts';
import { withTags } from '../../src/reconcile/index.ts';
import { renderReport } from '../../src/render/index.ts';
import { listing, listings } from '../../src/testing/listing.ts';
import { LISTING_MAPPING, recordsFeed } from '../../src/testing/records-feed.ts';
import { type Harness, startHarness, writes } from './harness.ts';

/**
 * A value the feed stops sending (a price gone "on request", the last photo, a description) leaves
 * the platform: the spec has no value that clears a field and the sandbox, like an update that
 * patches, keeps what an update leaves out, so the listing is replaced (created anew, the old ID
 * deleted). Never a listing lost, never two left, and the next run writes nothing.
 */
const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const stored = (mls: string) => h!.sandbox.listings('SN-1').filter((l) => l.MLSNumber === mls);

/** The platform fills a listing's coordinates itself (a geocoder): an update that sends them. Its ID. */
async function geocode(mls: string): Promise<number> {
  const [one] = stored(mls);
  const { ID, SerialNumber: _s, ...record } = one!;
  await h!.client.updateListing({
    ...record,
    Latitude: 39.7,
    Longitude: -89.6,
    SerialNumber: 'SN-1',
    Key: String(ID),
    KeyType: 'NewOaks',
  });
  return ID;
}

describe('a value the feed stops sending', () => {
  it('is cleared: the listing replaced once, the rest untouched, the next run writes nothing', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 5));
    const idsBefore = new Map(h.sandbox.listings('SN-1').map((l) => [l.MLSNumber, l.ID]));
    const next = listings(1, 5).map((l) =>
      l.MLSNumber === 'MLS-0002'
        ? { ...l, SalePrice: undefined }
        : l.MLSNumber === 'MLS-0003'
          ? { ...l, Images: undefined }
          : l.MLSNumber === 'MLS-0004'
            ? { ...l, Description: undefined, City: 'Shelbyville' }
            : l,
    );
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({
      outcome: 'ok',
      created: 0,
      updated: 3,
      replaced: 3,
      deleted: 0,
      unchanged: 2,
    });
    expect(h.keys()).toEqual(['MLS-0001', 'MLS-0002', 'MLS-0003', 'MLS-0004', 'MLS-0005']);
    const [two] = stored('MLS-0002');
    expect(two?.SalePrice).toBeUndefined();
    expect(two?.ID).not.toBe(idsBefore.get('MLS-0002'));
    expect(stored('MLS-0003')[0]?.Images).toBeUndefined();
    expect(stored('MLS-0004')[0]).toMatchObject({ City: 'Shelbyville' });
    expect(stored('MLS-0004')[0]?.Description).toBeUndefined();
    // Untouched listings keep their IDs.
    expect(stored('MLS-0001')[0]?.ID).toBe(idsBefore.get('MLS-0001'));
    // The report says what was cleared, and how.
    const price = report.changes?.find((c) => c.key === 'MLS-0002');
    expect(price).toMatchObject({ op: 'replace', id: idsBefore.get('MLS-0002'), newId: two?.ID });
    expect(renderReport(report)).toContain(
      `MLS-0002 [ID ${idsBefore.get('MLS-0002')} → ${two?.ID}] (SalePrice)`,
    );
    expect(price?.fields?.find((f) => f.field === 'SalePrice')).toMatchObject({ from: 252_000.33 });
    expect(renderReport(report)).toContain(
      '3 listing(s) replaced to clear a value the feed no longer sends (created anew, the old ID deleted)',
    );
    // No flap: the next run finds every listing equal.
    const again = await h.sync(h.feed(), next);
    expect(writes(again)).toBe(0);
    expect(again).toMatchObject({ unchanged: 5 });
  });

  it('a dry run plans the replace and writes nothing', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 3));
    const next = listings(1, 3).map((l) => (l.MLSNumber === 'MLS-0001' ? { ...l, SalePrice: undefined } : l));
    const report = await h.sync(h.feed(), next, { dryRun: true });
    expect(report).toMatchObject({ updated: 1, replaced: 1 });
    expect(writes(report)).toBe(0);
    expect(stored('MLS-0001')[0]?.SalePrice).toBe(251_000.33);
  });

  it('repairs a listing an earlier version left with a stale value, though its record hash matches', async () => {
    h = await startHarness();
    // As an update that left the price out used to leave it: the feed's record (hash and all), with
    // the old price still on the platform.
    const feedOne = listing(1, { SalePrice: undefined });
    await h.sync(h.feed(), [feedOne, listing(2)]);
    const id = stored('MLS-0001')[0]!.ID;
    const { ID: _id, SerialNumber: _s, ...rest } = stored('MLS-0001')[0]!;
    h.sandbox.seed('SN-1', [{ ...rest, SalePrice: 999_000 }]);
    await h.client.deleteListings({ SerialNumber: 'SN-1', Keys: [String(id)], KeyType: 'NewOaks' });
    const report = await h.sync(h.feed(), [feedOne, listing(2)]);
    expect(report).toMatchObject({ updated: 1, replaced: 1, created: 0, deleted: 0 });
    expect(stored('MLS-0001')).toHaveLength(1);
    expect(stored('MLS-0001')[0]?.SalePrice).toBeUndefined();
  });

  it('is kept under unsetFields: keep', async () => {
    h = await startHarness([{ id: 'feed1' }, { id: 'keeps', unsetFields: 'keep' }]);
    await h.sync(h.feed(), listings(1, 3));
    const next = listings(1, 3).map((l) => ({
      ...l,
      SalePrice: l.MLSNumber === 'MLS-0001' ? undefined : l.SalePrice,
    }));
    // The same chatbot, a feed that keeps: MLS-0001's old price stays, nothing is written but the hash.
    const keeps = { ...h.feed('keeps'), id: 'feed1' };
    const kept = await h.sync(keeps, next);
    expect(kept).toMatchObject({ updated: 1 });
    expect(kept.replaced).toBeUndefined();
    expect(stored('MLS-0001')[0]?.SalePrice).toBe(251_000.33);
    expect(writes(await h.sync(keeps, next))).toBe(0);
  });

  it('is kept where the feed neither maps the field nor sets it on any listing (a value added by hand)', async () => {
    const { Description: _d, ...fields } = LISTING_MAPPING.fields ?? {};
    h = await startHarness([{ mapping: { ...LISTING_MAPPING, fields } }]);
    const bare = listings(1, 3).map((l) => ({ ...l, Description: undefined }));
    await h.sync(h.feed(), bare);
    const [one] = stored('MLS-0001');
    const { ID, SerialNumber: _s, ...record } = one!;
    await h.client.updateListing({
      ...record,
      Description: 'Added by hand',
      SerialNumber: 'SN-1',
      Key: String(ID),
      KeyType: 'NewOaks',
    });
    const after = await h.sync(h.feed(), bare);
    expect(writes(after)).toBe(0);
    expect(stored('MLS-0001')[0]?.Description).toBe('Added by hand');
  });

  it('a number the platform holds as 0 is no value to clear: no replace, no flap', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 2));
    const next = [listing(1, { HOAMonth: 120 }), listing(2)];
    await h.sync(h.feed(), next);
    // A platform that stores an unset number as 0.
    const [two] = stored('MLS-0002');
    const { ID, SerialNumber: _s, ...record } = two!;
    await h.client.updateListing({
      ...record,
      HOAMonth: 0,
      SerialNumber: 'SN-1',
      Key: String(ID),
      KeyType: 'NewOaks',
    });
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it('a run stopped between the create and the delete leaves two listings; the next keeps the cleared one', async () => {
    h = await startHarness();
    const next = [listing(1, { SalePrice: undefined }), listing(2)];
    await h.sync(h.feed(), next);
    // The old listing, with its price, beside the new one: as a replace whose delete never came.
    const [fresh] = stored('MLS-0001');
    const { ID: freshId, SerialNumber: _s, ...record } = fresh!;
    h.sandbox.seed('SN-1', [withTags({ ...record, SalePrice: 251_000.33 }, 'feed1', tags)]);
    expect(stored('MLS-0001')).toHaveLength(2);
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({ deleted: 1, duplicatesDeleted: 1 });
    expect(report.replaced).toBeUndefined();
    expect(stored('MLS-0001').map((l) => [l.ID, l.SalePrice])).toEqual([[freshId, undefined]]);
  });
});

describe('a replace', () => {
  it('keeps what was added by hand in fields the feed leaves unset and does not clear (a tester: wiped)', async () => {
    const { EstimatePrice: _e, DepositFee: _d, ...fields } = LISTING_MAPPING.fields ?? {};
    h = await startHarness([{ mapping: { ...LISTING_MAPPING, fields } }]);
    await h.sync(h.feed(), listings(1, 2));
    const [one] = stored('MLS-0001');
    const { ID, SerialNumber: _s, ...record } = one!;
    await h.client.updateListing({
      ...record,
      EstimatePrice: 430_000,
      DepositFee: 10_000,
      SerialNumber: 'SN-1',
      Key: String(ID),
      KeyType: 'NewOaks',
    });
    const next = [listing(1, { SalePrice: undefined }), listing(2)];
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({ updated: 1, replaced: 1 });
    expect(stored('MLS-0001')).toHaveLength(1);
    expect(stored('MLS-0001')[0]).toMatchObject({ EstimatePrice: 430_000, DepositFee: 10_000 });
    expect(stored('MLS-0001')[0]?.SalePrice).toBeUndefined();
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it('whose delete is refused is no replace yet: the failure is said, and the next run deletes the old one', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 2));
    const next = [listing(1, { SalePrice: undefined }), listing(2)];
    h.sandbox.configure({ faults: { refuseRate: 1 }, faultOperations: ['delete'] });
    const report = await h.sync(h.feed(), next);
    expect(report.replaced).toBeUndefined();
    expect(report).toMatchObject({ updated: 1 });
    expect(report.failed.map((f) => f.operation)).toEqual(['delete']);
    expect(stored('MLS-0001')).toHaveLength(2);
    h.sandbox.configure({ faults: { refuseRate: 0 } });
    const after = await h.sync(h.feed(), next);
    expect(after).toMatchObject({ deleted: 1, duplicatesDeleted: 1 });
    expect(stored('MLS-0001').map((l) => l.SalePrice)).toEqual([undefined]);
  });
});

describe('a replace, what a reviewer found', () => {
  /** A client whose first create's answer is lost, and that never happened. */
  const losingFirstCreate = (client: PlatformClient): PlatformClient => {
    let lost = false;
    const lose = () => {
      if (lost) return false;
      lost = true;
      return true;
    };
    return {
      ...client,
      createListingJson: async (...args: Parameters<PlatformClient['createListingJson']>) => {
        if (lose()) throw new AmbiguousCreateError(new TimeoutError('create', 1000));
        return client.createListingJson(...args);
      },
      createListing: async (...args: Parameters<PlatformClient['createListing']>) => {
        if (lose()) throw new AmbiguousCreateError(new TimeoutError('create', 1000));
        return client.createListing(...args);
      },
    };
  };

  it('a create in doubt deletes nothing, though a duplicate of the key this run deletes could pass for it', async () => {
    h = await startHarness([{}], {}, { concurrency: 1 });
    await h.sync(h.feed(), listings(1, 2));
    const { ID: _id, SerialNumber: _s, ...record } = stored('MLS-0001')[0]!;
    h.sandbox.seed('SN-1', [withTags({ ...record, City: 'Elsewhere' }, 'feed1', tags)]);
    const next = [listing(1, { SalePrice: undefined }), listing(2)];
    const report = await h.sync(h.feed(), next, {}, { client: losingFirstCreate(h.client) });
    expect(report.failed.map((f) => f.operation)).toEqual(['create']);
    // The duplicate went; the listing replaced in doubt stayed, with its price.
    expect(stored('MLS-0001').map((l) => l.SalePrice)).toEqual([251_000.33]);
    await h.sync(h.feed(), next);
    expect(stored('MLS-0001').map((l) => l.SalePrice)).toEqual([undefined]);
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it('a create the platform refuses: the update is made without the clear, so the rest lands', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 2));
    h.sandbox.configure({ faults: { refuseRate: 1 }, faultOperations: ['create'] });
    const next = [listing(1, { SalePrice: undefined, Status: 'Sold' }), listing(2)];
    const report = await h.sync(h.feed(), next);
    expect(report.failed.map((f) => f.operation)).toEqual(['create']);
    expect(report).toMatchObject({ updated: 1 });
    expect(stored('MLS-0001').map((l) => [l.Status, l.SalePrice])).toEqual([['Sold', 251_000.33]]);
    // Not tried again run after run (a reviewer: failed, and the feed read in full, every run).
    const again = await h.sync(h.feed(), next);
    expect(writes(again)).toBe(0);
    expect(again).toMatchObject({ outcome: 'ok' });
    expect(again.guards.find((g) => g.guard === 'platform-fills')).toBeDefined();
  });

  it('a create answered with the old listing’s own ID (a platform that creates by MLSNumber as an update) deletes nothing', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 2));
    const client = h.client;
    const upsert: PlatformClient = {
      ...client,
      createListing: async (body, options) => {
        const same = h!.sandbox.listings('SN-1').find((l) => l.MLSNumber === body.MLSNumber);
        if (same === undefined) return client.createListing(body, options);
        await client.updateListing({ ...body, Key: String(same.ID), KeyType: 'NewOaks' }, options);
        return String(same.ID);
      },
    };
    const report = await h.sync(
      h.feed(),
      [listing(1, { SalePrice: undefined }), listing(2)],
      {},
      { client: upsert },
    );
    expect(report.apiCalls.delete).toBe(0);
    expect(stored('MLS-0001')).toHaveLength(1);
    expect(report.replaced).toBeUndefined();
  });

  it('an incremental run without the key keeps the newest of its listings: the replace, not the old one', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 2));
    const refusing: PlatformClient = {
      ...h.client,
      deleteListings: async () => {
        throw new PlatformError('delete', 500, 'boom');
      },
    };
    await h.sync(h.feed(), [listing(1, { SalePrice: undefined }), listing(2)], {}, { client: refusing });
    expect(stored('MLS-0001')).toHaveLength(2);
    const report = await h.sync(
      h.feed(),
      recordsFeed([listing(2, { City: 'Shelbyville' })], { mode: 'incremental' }),
    );
    expect(report).toMatchObject({ duplicatesDeleted: 1 });
    expect(stored('MLS-0001').map((l) => l.SalePrice)).toEqual([undefined]);
  });

  it('many at once are held by a guard (a feed that blanked its price column): plain updates, no flap, --allow-mass-delete replaces', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 20));
    const ids = h.sandbox.listings('SN-1').map((l) => l.ID);
    const blank = listings(1, 20).map((l, i) => ({
      ...l,
      SalePrice: undefined,
      ...(i === 0 ? { City: 'Shelbyville' } : {}),
    }));
    const held = await h.sync(h.feed(), blank);
    expect(held).toMatchObject({ outcome: 'guarded', created: 0, deleted: 0 });
    expect(held.replaced).toBeUndefined();
    const guard = held.guards.find((g) => g.guard === 'mass-replace');
    expect(guard).toMatchObject({ tripped: true });
    expect(guard?.message).toMatch(
      /^20 listing\(s\) would be replaced to clear a value the feed no longer sends, more than 5 /,
    );
    // MLS-0001's city is written, without the clear; the others are not written at all (a tester:
    // 180 writes of the record hash alone, and 180 more once the export was fixed).
    expect(held).toMatchObject({ updated: 1, unchanged: 19 });
    expect(held.apiCalls.update).toBe(1);
    expect(held.changes?.find((c) => c.key === 'MLS-0001')?.fields?.map((f) => f.field)).toEqual(['City']);
    expect(h.sandbox.listings('SN-1').map((l) => l.ID)).toEqual(ids);
    expect(h.sandbox.listings('SN-1').every((l) => l.SalePrice !== undefined)).toBe(true);
    expect(h.sandbox.listings('SN-1')[0]?.City).toBe('Shelbyville');
    // Then only the clears are left, and held: no write, the listings counted unchanged.
    const again = await h.sync(h.feed(), blank);
    expect(writes(again)).toBe(0);
    expect(again).toMatchObject({ outcome: 'guarded', unchanged: 20 });
    // The export fixed: the 19 held are as they were; MLS-0001 takes its record hash back.
    const fixed = listings(1, 20).map((l, i) => (i === 0 ? { ...l, City: 'Shelbyville' } : l));
    const repaired = await h.sync(h.feed(), fixed);
    expect(repaired).toMatchObject({ outcome: 'ok', updated: 1, unchanged: 19 });
    expect(h.sandbox.listings('SN-1').map((l) => l.ID)).toEqual(ids);
    const allowed = await h.sync(h.feed(), blank, { allowMassDelete: true });
    expect(allowed).toMatchObject({ replaced: 20 });
    expect(h.sandbox.listings('SN-1').every((l) => l.SalePrice === undefined)).toBe(true);
  });

  it('the overrides a run held are apart: the deletes’ lets no replace through; the replaces’ only those it was given for', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 20));
    // 6 gone (held by max-delete-share) and 10 prices blanked (held by mass-replace).
    const next = listings(1, 14).map((l, i) => (i < 10 ? { ...l, SalePrice: undefined } : l));
    const held = await h.sync(h.feed(), next);
    expect(held).toMatchObject({ outcome: 'guarded', heldDeletes: 6, deleted: 0 });
    const replaces = held.guards.find((g) => g.guard === 'mass-replace');
    expect(replaces?.held).toMatchObject({ count: 10, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const allowDeletes = { digest: held.heldDeletesDigest as string, count: 6 };
    const deleted = await h.sync(h.feed(), next, { allowDeletes });
    expect(deleted).toMatchObject({ deleted: 6 });
    expect(deleted.replaced).toBeUndefined();
    expect(deleted.guards.find((g) => g.guard === 'mass-replace')).toMatchObject({ tripped: true });
    // One more price blanked since the page: the replaces' override is for 10, this run holds 11.
    const more = next.map((l, i) => (i === 10 ? { ...l, SalePrice: undefined } : l));
    const allowReplaces = replaces?.held as { digest: string; count: number };
    const refused = await h.sync(h.feed(), more, { allowReplaces });
    expect(refused.replaced).toBeUndefined();
    expect(refused.guards.find((g) => g.guard === 'override-mismatch')?.message).toContain(
      'the override was given for 10 held replaces, and this run holds 11',
    );
    const replaced = await h.sync(h.feed(), next, { allowReplaces });
    expect(replaced).toMatchObject({ replaced: 10 });
  });

  it('a column blanked on every listing is not the feed’s to clear (no listing sets it), but for the prices', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 3));
    const noPhotos = listings(1, 3).map((l) => ({ ...l, Images: undefined }));
    const report = await h.sync(h.feed(), noPhotos);
    expect(report.replaced).toBeUndefined();
    expect(h.sandbox.listings('SN-1').every((l) => (l.Images ?? []).length === 2)).toBe(true);
  });

  it('an adopted listing replaced is said as a replace', async () => {
    h = await startHarness();
    h.sandbox.seed('SN-1', [listing(1, { HOAMonth: 300 })]);
    const report = await h.sync(h.feed(), [listing(1), listing(2, { HOAMonth: 100 })]);
    expect(report).toMatchObject({ adopted: 1, replaced: 1, created: 1 });
    expect(report.changes?.find((c) => c.key === 'MLS-0001')).toMatchObject({ op: 'replace' });
    expect(stored('MLS-0001').map((l) => l.HOAMonth)).toEqual([undefined]);
  });
});

describe('a platform that fills a field itself', () => {
  it('is not replaced again and again: the run after a replace that finds the value back leaves it, and says so', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 3));
    const next = [listing(1, { Latitude: undefined, Longitude: undefined }), ...listings(2, 3)];
    const first = await h.sync(h.feed(), next);
    expect(first).toMatchObject({ replaced: 1 });
    expect(await h.state.getFeed('feed1')).toMatchObject({
      cleared: { 'MLS-0001': ['Latitude', 'Longitude'] },
    });
    // The platform geocodes the new listing: its coordinates are back.
    const ID = await geocode('MLS-0001');
    // An incremental run that does not read the key keeps the note (a reviewer: dropped, then replaced again).
    await h.sync(h.feed(), recordsFeed([listing(2)], { mode: 'incremental' }));
    expect((await h.state.getFeed('feed1')).cleared).toEqual({ 'MLS-0001': ['Latitude', 'Longitude'] });
    for (let run = 0; run < 2; run++) {
      const again = await h.sync(h.feed(), next);
      expect(writes(again)).toBe(0);
      expect(again.guards.find((g) => g.guard === 'platform-fills')?.message).toMatch(
        /^1 listing\(s\) hold Latitude, Longitude again, which an earlier replace cleared or could not clear/,
      );
    }
    expect(stored('MLS-0001').map((l) => l.ID)).toEqual([ID]);
    // The value comes back in the feed: an update as ever, and the note is forgotten.
    const back = await h.sync(h.feed(), listings(1, 3));
    expect(back).toMatchObject({ updated: 1 });
    expect((await h.state.getFeed('feed1')).cleared).toBeUndefined();
  });

  it('is not replaced when the platform fills it in a listing just created without it (a tester: each new listing replaced once)', async () => {
    h = await startHarness();
    // MLS-0001 comes without coordinates; the feed sets them on the others.
    const feed = [listing(1, { Latitude: undefined, Longitude: undefined }), ...listings(2, 3)];
    expect(await h.sync(h.feed(), feed)).toMatchObject({ created: 3 });
    expect((await h.state.getFeed('feed1')).createdUnset).toEqual(['MLS-0001']);
    await geocode('MLS-0001');
    const [{ ID } = { ID: 0 }] = stored('MLS-0001');
    const next = await h.sync(h.feed(), feed);
    expect(writes(next)).toBe(0);
    expect(next.guards.find((g) => g.guard === 'platform-fills')?.message).toMatch(
      /^1 listing\(s\) hold Latitude, Longitude since a run created them without it/,
    );
    // From then on the listing's note is a replace's: kept while the feed leaves the fields unset.
    const state = await h.state.getFeed('feed1');
    expect([state.createdUnset, state.cleared]).toEqual([
      undefined,
      { 'MLS-0001': ['Latitude', 'Longitude'] },
    ]);
    const after = await h.sync(h.feed(), feed);
    expect(writes(after)).toBe(0);
    // No replace ever happened to it (a tester: the message said one had).
    expect(after.guards.find((g) => g.guard === 'platform-fills')?.message).toMatch(
      /hold Latitude, Longitude again, which an earlier replace cleared or could not clear, or a create left out/,
    );
    expect(stored('MLS-0001').map((l) => [l.ID, l.Latitude])).toEqual([[ID, 39.7]]);
  });

  it('notes no create the platform refused; the next run creates it and notes it then (a reviewer)', async () => {
    h = await startHarness();
    const feed = [listing(1, { Latitude: undefined, Longitude: undefined }), ...listings(2, 3)];
    h.sandbox.configure({ faults: { refuseRate: 1 }, faultOperations: ['create'] });
    const refused = await h.sync(h.feed(), feed);
    expect(refused.failed.map((f) => [f.key, f.operation])).toContainEqual(['MLS-0001', 'create']);
    expect((await h.state.getFeed('feed1')).createdUnset).toBeUndefined();
    h.sandbox.configure({ faults: { refuseRate: 0 } });
    expect(await h.sync(h.feed(), feed)).toMatchObject({ created: 3 });
    expect((await h.state.getFeed('feed1')).createdUnset).toEqual(['MLS-0001']);
  });

  it('reads a note saved as an object by key (an unreleased build), rather than failing every run (a reviewer)', async () => {
    h = await startHarness();
    const feed = [listing(1, { Latitude: undefined, Longitude: undefined }), ...listings(2, 3)];
    await h.sync(h.feed(), feed);
    await h.state.updateFeed('feed1', { createdUnset: { 'MLS-0001': ['Latitude', 'Longitude'] } as never });
    await geocode('MLS-0001');
    const next = await h.sync(h.feed(), feed);
    expect([next.outcome, writes(next)]).toEqual(['ok', 0]);
  });

  it('takes the coordinates a geocoder fills a run or more after the create as the platform’s (a reviewer: a slow geocoder replaced)', async () => {
    h = await startHarness();
    const feed = [listing(1, { Latitude: undefined, Longitude: undefined }), ...listings(2, 3)];
    await h.sync(h.feed(), feed);
    // Nothing filled yet: the note stays while the listing is found without them.
    expect(writes(await h.sync(h.feed(), feed))).toBe(0);
    expect((await h.state.getFeed('feed1')).createdUnset).toEqual(['MLS-0001']);
    const ID = await geocode('MLS-0001');
    const late = await h.sync(h.feed(), feed);
    expect(writes(late)).toBe(0);
    expect(stored('MLS-0001').map((l) => [l.ID, l.Latitude])).toEqual([[ID, 39.7]]);
    expect((await h.state.getFeed('feed1')).createdUnset).toBeUndefined();
    // The feed sends coordinates for it: an update as ever, and no note left.
    expect(await h.sync(h.feed(), listings(1, 3))).toMatchObject({ updated: 1 });
    expect(stored('MLS-0001').map((l) => l.ID)).toEqual([ID]);
    const state = await h.state.getFeed('feed1');
    expect([state.createdUnset, state.cleared]).toEqual([undefined, undefined]);
  });

  it('a value gone, back, and gone again is cleared each time (no note left from the first)', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 3));
    const poa = [listing(1, { SalePrice: undefined }), ...listings(2, 3)];
    expect(await h.sync(h.feed(), poa)).toMatchObject({ replaced: 1 });
    expect(writes(await h.sync(h.feed(), poa))).toBe(0);
    // Noted while the feed leaves it unset; forgotten once the price is back.
    expect((await h.state.getFeed('feed1')).cleared).toEqual({ 'MLS-0001': ['SalePrice'] });
    await h.sync(h.feed(), listings(1, 3));
    expect((await h.state.getFeed('feed1')).cleared).toBeUndefined();
    expect(await h.sync(h.feed(), poa)).toMatchObject({ replaced: 1 });
  });
});

describe('an incremental feed', () => {
  it('clears a field its earlier reads set, though no record of this run sets it (a tester: a RESO description kept)', async () => {
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 3));
    expect((await h.state.getFeed('feed1')).fieldsSet).toContain('Description');
    const changed = [listing(2, { Description: undefined })];
    const report = await h.sync(h.feed(), recordsFeed(changed, { mode: 'incremental' }));
    expect(report).toMatchObject({ replaced: 1 });
    expect(stored('MLS-0002')[0]?.Description).toBeUndefined();
    expect(h.keys()).toEqual(['MLS-0001', 'MLS-0002', 'MLS-0003']);
  });
});
