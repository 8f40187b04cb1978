import { afterEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/reconcile/index.ts';
import { withTags } from '../../src/reconcile/index.ts';
import { renderReport } from '../../src/render/index.ts';
import { listing, listings } from '../../src/testing/listing.ts';
import { LISTING_MAPPING } from '../../src/testing/records-feed.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * A value the feed stops sending (a price gone "on request", the last photo, a description) leaves
 * the platform: the spec has no value that clears a field and the sandbox, like an update that
 * patches, keeps what an update leaves out, so the listing is replaced (created anew, the old ID
 * deleted). Never a listing lost, never two left, and the next run writes nothing.
 */
const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const writes = (r: RunReport) => r.apiCalls.create + r.apiCalls.update + r.apiCalls.delete;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const stored = (mls: string) => h!.sandbox.listings('SN-1').filter((l) => l.MLSNumber === mls);

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
    expect(price).toMatchObject({ op: 'replace' });
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
