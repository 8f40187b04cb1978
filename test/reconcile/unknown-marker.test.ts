import { afterEach, describe, expect, it } from 'vitest';
import type { Listing } from '../../src/normalize/index.ts';
import { listing, listings } from '../../src/testing/listing.ts';
import { type Harness, startHarness, writes } from './harness.ts';

/**
 * The unknown marker 0 fills a required number the feed does not carry (YearBuilt, ParkingSpots,
 * DaysOnMarket in many formats). A value an office typed into such a field on the platform is not
 * overwritten with it: not by a plain update, not by a replace, and it is no change to write. In a
 * field the feed does set on other listings, the 0 still clears what the feed stopped sending, by a
 * plain update (0 can be sent; no replace).
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const stored = (mls: string) => h!.sandbox.listings('SN-1').filter((l) => l.MLSNumber === mls);

/** The feed's listings as a format without year built or parking gives them: the marker 0. */
const bare = (from: number, to: number, overrides: Partial<Listing> = {}) =>
  listings(from, to).map((l) => ({ ...l, YearBuilt: 0, ParkingSpots: 0, ...overrides }));

/** What an office does in the platform's own screens: the listing saved with a field typed in. */
async function typeIn(mls: string, fields: Partial<Listing>): Promise<void> {
  const [one] = stored(mls);
  const { ID, SerialNumber: _s, ...record } = one!;
  await h!.client.updateListing({
    ...record,
    ...fields,
    SerialNumber: 'SN-1',
    Key: String(ID),
    KeyType: 'NewOaks',
  });
}

describe('the unknown marker 0', () => {
  it('leaves a value typed in on the platform, through a no-op and through an update of another field', async () => {
    h = await startHarness();
    await h.sync(h.feed(), bare(1, 3));
    expect(stored('MLS-0001')[0]).toMatchObject({ YearBuilt: 0, ParkingSpots: 0 });
    await typeIn('MLS-0001', { YearBuilt: 1995, ParkingSpots: 3 });
    // Nothing to write: the feed does not say the year.
    const same = await h.sync(h.feed(), bare(1, 3));
    expect(writes(same)).toBe(0);
    expect(same).toMatchObject({ unchanged: 3 });
    // The price changes: the update sends it, and leaves the typed-in year and parking alone.
    const next = bare(1, 3).map((l) => (l.MLSNumber === 'MLS-0001' ? { ...l, SalePrice: 199_000 } : l));
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({ outcome: 'ok', updated: 1, unchanged: 2, failedCount: 0 });
    expect(report.replaced).toBeUndefined();
    expect(stored('MLS-0001')[0]).toMatchObject({ SalePrice: 199_000, YearBuilt: 1995, ParkingSpots: 3 });
    expect(report.changes?.[0]?.fields?.map((f) => f.field)).not.toContain('YearBuilt');
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it('a replace (a price gone on request) carries the typed-in year onto the new listing', async () => {
    h = await startHarness();
    await h.sync(h.feed(), bare(1, 3));
    await typeIn('MLS-0002', { YearBuilt: 1961 });
    const next = bare(1, 3).map((l) => (l.MLSNumber === 'MLS-0002' ? { ...l, SalePrice: undefined } : l));
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({ updated: 1, replaced: 1, failedCount: 0 });
    expect(stored('MLS-0002')).toHaveLength(1);
    expect(stored('MLS-0002')[0]).toMatchObject({ YearBuilt: 1961, ParkingSpots: 0 });
    expect(stored('MLS-0002')[0]?.SalePrice).toBeUndefined();
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it('clears a year the feed stopped sending, where it sends years: a plain update to 0, the same ID', async () => {
    h = await startHarness();
    // The feed sends years (listing() has them): MLS-0002 loses its own.
    await h.sync(h.feed(), listings(1, 3));
    const id = stored('MLS-0002')[0]!.ID;
    const next = listings(1, 3).map((l) => (l.MLSNumber === 'MLS-0002' ? { ...l, YearBuilt: 0 } : l));
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({ updated: 1, unchanged: 2, failedCount: 0 });
    expect(report.replaced).toBeUndefined();
    expect(stored('MLS-0002')[0]).toMatchObject({ ID: id, YearBuilt: 0 });
    const change = report.changes?.find((c) => c.key === 'MLS-0002');
    expect(change?.op).toBe('update');
    expect(change?.fields?.find((f) => f.field === 'YearBuilt')).toMatchObject({ from: 1992, to: 0 });
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it('on a platform that requires every field on update, is sent after all, and the report says so', async () => {
    h = await startHarness([{}], { updateRequiresAll: true });
    await h.sync(h.feed(), bare(1, 4));
    const next = bare(1, 4, { SalePrice: 99_000 });
    const report = await h.sync(h.feed(), next);
    // The updates refused without the markers (those in flight together) are sent again with them.
    expect(report).toMatchObject({ outcome: 'ok', updated: 4, failedCount: 0 });
    expect(report.apiCalls.update).toBeGreaterThan(4);
    expect(report.apiCalls.update).toBeLessThanOrEqual(8);
    expect(report.hints?.filter((hint) => hint.code === 'update_needs_markers')).toHaveLength(1);
    expect(report.hints?.map((hint) => hint.code)).toContain('update_needs_markers');
    expect(report.hints?.find((hint) => hint.code === 'update_needs_markers')?.message).toMatch(
      /YearBuilt, .*ParkingSpots/,
    );
    for (const n of [1, 2, 3, 4]) expect(stored(`MLS-000${n}`)[0]).toMatchObject({ SalePrice: 99_000 });
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it('where the feed says 0 itself in a field it sets elsewhere (a studio: 0 bedrooms), the 0 is written', async () => {
    h = await startHarness();
    await h.sync(h.feed(), [listing(1), listing(2)]);
    const next = [listing(1), listing(2, { Bedrooms: 0 })];
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({ updated: 1, failedCount: 0 });
    expect(stored('MLS-0002')[0]).toMatchObject({ Bedrooms: 0 });
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });

  it('a refusal that names no field left out (a content rule) is a failure: nothing sent again, no hint', async () => {
    h = await startHarness([{}], { faults: { refuseRate: 1 }, faultOperations: ['update'] });
    await h.sync(h.feed(), bare(1, 3));
    await h.sandbox.configure({ faults: { refuseRate: 0 } });
    await typeIn('MLS-0003', { YearBuilt: 1995 });
    await h.sandbox.configure({ faults: { refuseRate: 1 } });
    const report = await h.sync(h.feed(), bare(1, 3, { SalePrice: 99_000 }));
    expect(report).toMatchObject({ updated: 0, failedCount: 3 });
    expect(report.apiCalls.update).toBe(3);
    expect(report.hints?.map((hint) => hint.code) ?? []).not.toContain('update_needs_markers');
    expect(stored('MLS-0003')[0]).toMatchObject({ YearBuilt: 1995 });
  });

  it('under unsetFields: keep, a 0 the feed gives in a field it sets elsewhere is written (a studio, a relisting)', async () => {
    h = await startHarness([{ unsetFields: 'keep' }]);
    await h.sync(h.feed(), listings(1, 3));
    const next = listings(1, 3).map((l) =>
      l.MLSNumber === 'MLS-0002' ? { ...l, Bedrooms: 0, DaysOnMarket: 0 } : l,
    );
    const report = await h.sync(h.feed(), next);
    expect(report).toMatchObject({ updated: 1, failedCount: 0 });
    expect(stored('MLS-0002')[0]).toMatchObject({ Bedrooms: 0, DaysOnMarket: 0 });
    expect(writes(await h.sync(h.feed(), next))).toBe(0);
  });
});
