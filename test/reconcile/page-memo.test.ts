import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { decodePool } from '../../src/reconcile/decode-pool.ts';
import type { RunReport } from '../../src/reconcile/index.ts';
import { pageMemoId } from '../../src/reconcile/page-memo.ts';
import { renderReport } from '../../src/render/index.ts';
import { listing } from '../../src/testing/listing.ts';
import { memoryMemo } from '../../src/testing/memory-memo.ts';
import { type Harness, startHarness } from './harness.ts';

// The page memo (src/reconcile/page-memo.ts): a page the platform answers with the bytes of the
// last run's is read back, not decoded; it must never change what a run sees.
afterAll(() => decodePool.stop());

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const listings = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => listing(from + i));

const PAGES = { pageSize: 4, concurrency: 2 };

/**
 * A harness whose chatbot holds listings 1 to `count` (4 a page), synced twice with a memo store:
 * its page memo holds every page as the chatbot now answers it.
 */
async function memoized(count = 10) {
  h = await startHarness([{}], {}, PAGES);
  const memo = memoryMemo();
  const feed = h.feed();
  const harness = h;
  const sync = (items = listings(1, count), options = {}, store = memo) =>
    harness.sync(feed, items, options, { memo: store });
  await sync();
  await sync();
  return { memo, feed, sync };
}

async function updatePrice(harness: Harness, key: string, price: number): Promise<void> {
  const answer = await fetch(`${harness.sandbox.url}/chat/Chatbot/RealEstateUpdate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ SerialNumber: 'SN-1', KeyType: 'MLSNumber', Key: key, SalePrice: price }),
  });
  expect(answer.ok).toBe(true);
}

describe('the page memo', () => {
  it('an unchanged chatbot: every page known from the last run, the same report as without a memo', async () => {
    h = await startHarness([{}], {}, PAGES);
    const memo = memoryMemo();
    const feed = h.feed();
    const first = await h.sync(feed, listings(1, 10), {}, { memo });
    expect(first).toMatchObject({ created: 10 });
    // The first run's snapshot was one empty page: its memo holds that page.
    const second = await h.sync(feed, listings(1, 10), {}, { memo });
    expect(second).toMatchObject({ outcome: 'ok', unchanged: 10, created: 0, updated: 0 });
    expect(second.snapshot).toMatchObject({ pages: 3, remoteCount: 10 });
    const third = await h.sync(feed, listings(1, 10), {}, { memo });
    expect(third).toMatchObject({ outcome: 'ok', unchanged: 10, created: 0, updated: 0, deleted: 0 });
    expect(third.snapshot).toMatchObject({ pages: 3, pagesKnown: 3 });
    expect(renderReport(third)).toContain(
      'page memo: 3 of 3 page(s) known from the last run, not decoded again',
    );
    // Without a memo: no figure, the same result.
    const without = await h.sync(feed, listings(1, 10));
    expect(without).toMatchObject({ unchanged: 10, created: 0, updated: 0, deleted: 0 });
    expect(without.snapshot?.pagesKnown).toBeUndefined();
    expect(memo.open).toBe(0);
  });

  it('is written again only when it changed: every page known leaves the last memo as it was', async () => {
    const { memo, feed, sync } = await memoized();
    const id = pageMemoId(feed.id);
    const kept = memo.files.get(id);
    expect((await sync()).snapshot).toMatchObject({ pages: 3, pagesKnown: 3 });
    // The very bytes the last run left: not written again.
    expect(memo.files.get(id)).toBe(kept);
    // One page changes (a listing edited on the platform): the memo is written again, whole, with
    // the pages known from the last one beside the one decoded, and the next run knows all three.
    await updatePrice(h!, 'MLS-0006', 1);
    expect((await sync()).snapshot).toMatchObject({ pages: 3, pagesKnown: 2 });
    expect(memo.files.get(id)).not.toBe(kept);
    expect((await sync()).snapshot).toMatchObject({ pages: 3, pagesKnown: 2 });
    const after = await sync();
    expect(after).toMatchObject({ outcome: 'ok', unchanged: 10, snapshot: { pages: 3, pagesKnown: 3 } });
    // Fewer pages than the memo holds (listings gone): written again, with the pages still there.
    const fewer = await sync(listings(1, 4), { allowMassDelete: true });
    expect(fewer).toMatchObject({ deleted: 6 });
    const shrunk = memo.files.get(id);
    expect(await sync(listings(1, 4))).toMatchObject({ unchanged: 4, snapshot: { pagesKnown: 1 } });
    expect(memo.files.get(id)).not.toBe(shrunk);
    expect((await sync(listings(1, 4))).snapshot).toMatchObject({ pages: 1, pagesKnown: 1 });
    expect(memo.open).toBe(0);
  });

  it('counts only the pages the read counts: not the empty one that said the list ended', async () => {
    // 8 listings, 4 a page: a whole number of pages, so an empty third page ends the read.
    const { sync } = await memoized(8);
    const third = await sync();
    expect(third.snapshot).toMatchObject({ pages: 2, pagesKnown: 2 });
  });

  it('a listing created changes the count every page carries: the pages whose listings did not change stay known', async () => {
    const { sync } = await memoized();
    // Listing 11 joins the last page (4, 4, 3): the run that creates it read the pages before.
    expect(await sync(listings(1, 11))).toMatchObject({ created: 1, snapshot: { pagesKnown: 3 } });
    const after = await sync(listings(1, 11));
    expect(after).toMatchObject({ outcome: 'ok', unchanged: 11, created: 0, updated: 0 });
    expect(after.snapshot).toMatchObject({ remoteCount: 11, pages: 3, pagesKnown: 2 });
    // The count each known page gave is its own (11), not the memo's (10): nothing read again.
    expect(after.drift).toEqual([]);
    expect(after.apiCalls.list).toBe(3);
  });

  it('a listing edited on the platform changes its page: that page is decoded, and the edit written back', async () => {
    const { sync } = await memoized();
    await updatePrice(h!, 'MLS-0006', 1);
    const edited = await sync();
    expect(edited).toMatchObject({ outcome: 'ok', updated: 1, unchanged: 9 });
    expect(edited.snapshot).toMatchObject({ pages: 3, pagesKnown: 2 });
    const price = h!.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'MLS-0006')?.SalePrice;
    expect(price).toBe(listing(6).SalePrice);
  });

  it('a chatbot larger than the memo holds (by its last run) keeps none: read and written as before', async () => {
    const { memo, feed, sync } = await memoized();
    const state = h!.state;
    expect(memo.files.get(pageMemoId(feed.id))).toBeDefined();
    // As if the last run had found 900,000 listings (~40 MB of entries at 44 bytes each, over the 32 MB bound).
    const last = (await state.getFeed(feed.id)).lastReport as RunReport;
    await state.updateFeed(feed.id, {
      lastReport: { ...last, snapshot: { ...last.snapshot!, remoteCount: 900_000 } },
    });
    const big = await sync();
    expect(big).toMatchObject({ outcome: 'ok', unchanged: 10 });
    expect(big.snapshot?.pagesKnown).toBeUndefined();
    // Within what a run that reuses its feed's reading holds (96 MB): the last memo stays on disk.
    expect(memo.files.has(pageMemoId(feed.id))).toBe(true);
    // As if it had found 3,000,000 (~132 MB, over both bounds): the last memo is not left on disk.
    const again = (await state.getFeed(feed.id)).lastReport as RunReport;
    await state.updateFeed(feed.id, {
      lastReport: { ...again, snapshot: { ...again.snapshot!, remoteCount: 3_000_000 } },
    });
    expect((await sync()).snapshot?.pagesKnown).toBeUndefined();
    expect(memo.files.has(pageMemoId(feed.id))).toBe(false);
    // Its count is 10 again: a memo is kept again, and used by the run after.
    expect((await sync()).snapshot?.pagesKnown).toBe(0);
    expect((await sync()).snapshot?.pagesKnown).toBe(3);
  });

  it('the feed changed, the platform not: the listings of known pages are compared with their own records', async () => {
    const { sync } = await memoized();
    // Two listings on two pages read back from the memo change in the feed: each update must name
    // its own listing's old value, read from its own record (the memo's places, `refs`).
    const changed = listings(1, 10).map((l, i) =>
      i === 2 || i === 8 ? { ...l, SalePrice: 999_000 + i, Description: `changed ${i}` } : l,
    );
    const report = await sync(changed);
    expect(report).toMatchObject({ outcome: 'ok', updated: 2, unchanged: 8, snapshot: { pagesKnown: 3 } });
    const byKey = new Map((report.changes ?? []).map((c) => [c.key, c]));
    for (const n of [3, 9]) {
      const fields = byKey.get(listing(n).MLSNumber as string)?.fields ?? [];
      expect(fields.find((f) => f.field === 'Description')).toMatchObject({
        from: listing(n).Description,
        to: `changed ${n - 1}`,
      });
    }
    expect(h!.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'MLS-0009')?.Description).toBe(
      'changed 8',
    );
  });

  it('a dry run reads the memo and leaves it as it was; a memo that is not one is decoded around', async () => {
    const { memo, feed, sync } = await memoized();
    const kept = memo.files.get(pageMemoId(feed.id));
    expect(kept?.length).toBeGreaterThan(32);
    await updatePrice(h!, 'MLS-0001', 2);
    const dry: RunReport = await sync(undefined, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, updated: 1 });
    expect(dry.snapshot?.pagesKnown).toBe(2);
    expect(memo.files.get(pageMemoId(feed.id))).toBe(kept);
    // Another build's memo (its stamp differs), and a torn one: every page decoded, the run right.
    const other = memoryMemo('other code');
    other.files.set(pageMemoId(feed.id), kept as Buffer);
    expect(await sync(undefined, { dryRun: true }, other)).toMatchObject({
      updated: 1,
      snapshot: { pagesKnown: 0 },
    });
    memo.files.set(pageMemoId(feed.id), (kept as Buffer).subarray(0, (kept as Buffer).length - 3));
    expect(await sync()).toMatchObject({
      updated: 1,
      snapshot: { pagesKnown: 0 },
    });
    // The page it wrote to is new to the memo the run left (the pages as read, before its writes).
    expect(await sync()).toMatchObject({
      unchanged: 10,
      snapshot: { pagesKnown: 2 },
    });
    expect(await sync()).toMatchObject({
      unchanged: 10,
      snapshot: { pagesKnown: 3 },
    });
    expect(memo.open).toBe(0);
  });
});
