import { afterEach, expect, it } from 'vitest';
import type { PageBytes, PlatformClient } from '../../src/api/index.ts';
import { listing, listings } from '../../src/testing/listing.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * The platform's pages are read while the feed is (prepare-run's `startSnapshot`), as soon as the
 * feed gives its first listing, and compared once it is read, perhaps minutes later. Another feed
 * of the chatbot deleting a listing between two page reads shifts the later pages: a listing
 * never seen would be created a second time.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it('reads the pages again when they changed while the feed was read: no listing is created twice', async () => {
  // Pages of 2, two at a time after the first.
  h = await startHarness([{ id: 'a' }, { id: 'b' }], {}, { pageSize: 2, concurrency: 2 });
  const b = h.feed('b');
  const a = h.feed('a');
  // On the platform, in ID order: b's 1–6, a's listing 100, b's 7–9.
  await h.sync(b, listings(1, 6));
  await h.sync(a, [listing(100)]);
  await h.sync(b, listings(1, 9));
  const box = h.sandbox;
  const before = box.listings('SN-1');
  expect(before.map((l) => l.MLSNumber).indexOf('MLS-0100')).toBe(6);

  // While feed a's run reads the pages, b's first listing leaves the platform: just before page 4 is
  // read, after pages 1–3. MLS-0100, on page 4 before, moves to page 3, read already.
  const client: PlatformClient = {
    ...h.client,
    listListingsDecoded: async (request, decode, options) => {
      if (request.PageNumber === 4 && request.SerialNumber === 'SN-1')
        await h!.client.deleteListings({ SerialNumber: 'SN-1', Keys: ['MLS-0001'], KeyType: 'MLSNumber' });
      return h!.client.listListingsDecoded(request, decode, options);
    },
  };
  const report = await h.sync(a, [listing(100)], {}, { client });

  expect(report).toMatchObject({ outcome: 'ok', created: 0, deleted: 0, unchanged: 1 });
  // Five pages, which did not add up (9 listings where VirtualCount said 10), then five again.
  expect(report.apiCalls).toMatchObject({ list: 10 });
  const numbers = box.listings('SN-1').map((l) => l.MLSNumber);
  expect(numbers.filter((n) => n === 'MLS-0100')).toHaveLength(1);
  expect(numbers).toHaveLength(9);
});

it('a server that gives no VirtualCount is read again before planning: a read while the feed was cannot be checked', async () => {
  // 9 listings; 5 asked a page, 2 given, no VirtualCount: every page is read at 2 until a short one.
  h = await startHarness([{ id: 'a' }], { maxPageSize: 2 }, { pageSize: 5, concurrency: 2 });
  const a = h.feed('a');
  await h.sync(a, listings(1, 9));
  const withoutCount = (body: PageBytes) => [
    new TextEncoder().encode(
      Buffer.concat(body)
        .toString()
        .replace(/"VirtualCount":\d+/, '"Count":null'),
    ),
  ];
  const client: PlatformClient = {
    ...h.client,
    listListingsDecoded: (request, decode, options) =>
      h!.client.listListingsDecoded(request, (body) => decode(withoutCount(body)), options),
  };
  const report = await h.sync(a, listings(1, 9), {}, { client });
  expect(report).toMatchObject({ outcome: 'ok', created: 0, deleted: 0, unchanged: 9 });
  expect(report.drift).toEqual([
    'the platform answered 2 listings a page where 5 were asked, without a VirtualCount: every page was read until a short one',
  ]);
  // Pages 1 to 5 (and page 6, empty: two at a time) while the feed was read, and again before the plan.
  expect(report.apiCalls).toMatchObject({ list: 12 });
});
