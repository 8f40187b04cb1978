import { afterEach, expect, it } from 'vitest';
import type { FeedOpener } from '../../src/sources/index.ts';
import { listing, listings } from '../../src/testing/listing.ts';
import { recordsFeed } from '../../src/testing/records-feed.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * The platform's first pages are read while the feed is (prepare-run's `startSnapshot`), the rest
 * after it, perhaps minutes later. Another feed of the chatbot deleting a listing in between
 * shifts the later pages: a listing never seen would be created a second time.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it('reads the pages again when they changed while the feed was read: no listing is created twice', async () => {
  // Two pages of 2 read ahead and one more (concurrency 2 + 1) while the feed is read.
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

  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  // Feed a yields its listing, then waits: meanwhile b's first listing leaves the platform.
  const slow: FeedOpener = async (feed, deps) => {
    const opened = await recordsFeed([listing(100)])(feed, deps);
    return {
      ...opened,
      records: (async function* () {
        for await (const batch of opened.records) {
          yield batch;
          holding();
          await hold;
        }
      })(),
    };
  };
  const run = h.sync(a, slow);
  await held;
  // The early pages have been asked for; wait until they are answered.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await h.client.deleteListings({ SerialNumber: 'SN-1', Keys: ['MLS-0001'], KeyType: 'MLSNumber' });
  release();
  const report = await run;

  expect(report).toMatchObject({ outcome: 'ok', created: 0, deleted: 0, unchanged: 1 });
  const numbers = box.listings('SN-1').map((l) => l.MLSNumber);
  expect(numbers.filter((n) => n === 'MLS-0100')).toHaveLength(1);
  expect(numbers).toHaveLength(9);
});
