import { describe, expect, it } from 'vitest';
import type { RemoteRecord } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import { listRecordOf, remote } from '../testing/list-record.ts';
import { listing } from '../testing/listing.ts';
import { desiredOf } from './desired.ts';
import { DesiredIndex } from './desired-index.ts';
import { withTags } from './ownership.ts';
import type { RemoteEntries } from './plan-types.ts';
import { memoryRecords } from './record-store.ts';
import { RemoteBook } from './remote-book.ts';
import { remoteEntries, soldRecordsOf } from './remote-entries.ts';
import { decodePage, PAGE_SPAN, recordsOf } from './remote-page.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const HASH = 'ExtensionColumn[feed-sync:hash]';
const policy = {
  feedId: 'acme',
  ownership: 'tagged' as const,
  mode: 'full' as const,
  removals: [],
  goneSince: {},
  gone: { action: 'markSold' as const, afterDays: 0 },
};

function rows(entries: RemoteEntries) {
  return Array.from({ length: entries.length }, (_, i) => ({
    id: entries.idAt(i),
    key: entries.keyAt(i),
    owner: entries.ownerAt(i),
    ref: entries.refAt(i),
    changes: entries.changesAt(i),
    sold: entries.soldAt?.(i)?.from,
  }));
}

describe('RemoteBook', () => {
  // The feed indexed after every page was read (`join` alone), before any (`attach` first), or
  // between two pages: the same entries, the same records read back.
  it.each(['never', 'before the pages', 'between the pages'] as const)(
    'joins pages decoded before the feed was known as remoteEntries compares them on arrival (attached %s)',
    async (attached) => {
      const feed = [
        listing(1),
        listing(2),
        listing(3, { Description: undefined }),
        listing(4, { Bedrooms: 5 }),
      ];
      // On the platform: 1 as written; 2 edited by hand; 3 with a Description the feed no longer
      // sets (cleared: the feed sets it on its other listings); 4 with the old bedrooms; 5 another feed's; 6 and 7 this
      // feed's, gone from it (7 Sold already); 8 without a key.
      const onPlatform: [number, Listing][] = [
        [101, withTags(listing(1), 'acme', tags)],
        [102, withTags(listing(2, { City: 'Shelbyville' }), 'acme', tags)],
        [103, withTags(listing(3), 'acme', tags)],
        [104, withTags(listing(4), 'acme', tags)],
        [105, withTags(listing(5), 'other', tags)],
        [106, withTags(listing(6), 'acme', tags)],
        [107, withTags(listing(7, { Status: 'Sold' }), 'acme', tags)],
        [108, withTags(listing(8, { MLSNumber: undefined }), 'acme', tags)],
      ];
      const plan = () => {
        const store = memoryRecords();
        const index = new DesiredIndex();
        const refs = feed.map((l) => index.add(desiredOf(l, l.MLSNumber ?? '', 'acme', tags, store)));
        index.keep(refs);
        const loader = { load: (e: { ref: number }) => store.get(e.ref) };
        return { index, loader, sold: soldRecordsOf(policy, (l) => store.put(l)) };
      };

      const one = plan();
      const sink = remoteEntries('MLSNumber', tags, one.index, one.loader, one.sold);
      for (const [id, stored] of onPlatform) sink.keep(1, remote(id, stored));
      const expected = rows(sink.finish().listings);

      const two = plan();
      const texts: string[] = [];
      const book = new RemoteBook();
      const pageOf = (list: [number, Listing][]) =>
        JSON.stringify({
          Data: { List: list.map(([id, l]) => listRecordOf(id, l) as RemoteRecord) },
          Code: 200,
        });
      // Pages arrive out of order.
      texts.push(pageOf(onPlatform.slice(4)), pageOf(onPlatform.slice(0, 4)));
      if (attached === 'before the pages') book.attach(two.index, two.sold);
      book.add(2, decodePage(texts[0]!, 'MLSNumber', tags, 0));
      if (attached === 'between the pages') book.attach(two.index, two.sold);
      book.add(1, decodePage(texts[1]!, 'MLSNumber', tags, 1));
      const asked: number[][] = [];
      const records = async (refs: readonly number[]) => {
        asked.push([...refs]);
        return refs.map((ref) => recordsOf(texts[Math.floor(ref / PAGE_SPAN)]!, [ref % PAGE_SPAN])[0]!);
      };
      const joined = await book.join(two.index, two.loader, records, two.sold);
      const actual = rows(joined.finish().listings);

      expect(actual).toEqual(expected);
      expect(actual.map((r) => [r.id, r.changes?.map((c) => c.field), r.sold])).toEqual([
        [101, [], undefined],
        [102, ['City', HASH], undefined],
        [103, ['Description', HASH], undefined],
        [104, ['Bedrooms', HASH], undefined],
        [105, undefined, undefined],
        [106, undefined, 'Active'],
        [107, undefined, undefined],
        [108, undefined, 'Active'],
      ]);
      // Only the listings the digests could not judge, and those to mark Sold, were read back whole:
      // 102, 103, 104, 106, 108 (not 101, 105 or 107).
      expect(asked.flat()).toHaveLength(5);
    },
  );

  // A no-op's pages are not written to the decode thread's spill file (`PageKeep`): the book says
  // which pages none of whose records it will ask for, whenever the feed is known.
  it.each(['never', 'before the pages', 'between the pages'] as const)(
    'names the pages none of whose records it asks for, and the others, before it asks of them (attached %s)',
    async (attached) => {
      const feed = [listing(1), listing(2), listing(3)];
      const store = memoryRecords();
      const index = new DesiredIndex();
      index.keep(feed.map((l) => index.add(desiredOf(l, l.MLSNumber ?? '', 'acme', tags, store))));
      const loader = { load: (e: { ref: number }) => store.get(e.ref) };
      const pageOf = (list: [number, Listing][]) =>
        JSON.stringify({
          Data: { List: list.map(([id, l]) => listRecordOf(id, l) as RemoteRecord) },
          Code: 200,
        });
      // Page 0: 1 as written and another feed's 5; page 1: 2 edited by hand; page 2: another feed's 6.
      const texts = [
        pageOf([
          [101, withTags(listing(1), 'acme', tags)],
          [105, withTags(listing(5), 'other', tags)],
        ]),
        pageOf([[102, withTags(listing(2, { City: 'Shelbyville' }), 'acme', tags)]]),
        pageOf([[106, withTags(listing(6), 'other', tags)]]),
      ];
      const unwanted: number[] = [];
      const wanted: number[] = [];
      const book = new RemoteBook({
        judged: (pages) => {
          unwanted.push(...pages.unwanted);
          wanted.push(...pages.wanted);
        },
      });
      if (attached === 'before the pages') book.attach(index);
      book.add(1, decodePage(texts[0]!, 'MLSNumber', tags, 0));
      book.add(2, decodePage(texts[1]!, 'MLSNumber', tags, 1));
      if (attached === 'between the pages') book.attach(index);
      book.add(3, decodePage(texts[2]!, 'MLSNumber', tags, 2));
      const records = async (refs: readonly number[]) =>
        refs.map((ref) => {
          const page = Math.floor(ref / PAGE_SPAN);
          if (!wanted.includes(page)) throw new Error(`page ${page} was not kept`);
          return recordsOf(texts[page]!, [ref % PAGE_SPAN])[0]!;
        });
      const joined = await book.join(index, loader, records);
      // Each page judged once, before its records are asked for.
      expect(unwanted.sort()).toEqual([0, 2]);
      expect(wanted).toEqual([1]);
      expect(rows(joined.finish().listings).map((r) => [r.id, r.changes?.map((c) => c.field)])).toEqual([
        [101, []],
        [102, ['City', HASH]],
        [105, undefined],
        [106, undefined],
      ]);
    },
  );

  it('asks for the next records while it compares the last: a rewrite in batches, the same changes, a failed batch its failure', async () => {
    // 4100 listings of this feed, each edited on the platform: five batches of records.
    const count = 4100;
    const feed = Array.from({ length: count }, (_, i) => listing(i + 1));
    const onPlatform: [number, Listing][] = feed.map((l, i) => [
      1000 + i,
      withTags(i % 2 === 0 ? { ...l, Bedrooms: 9 } : { ...l, Description: undefined }, 'acme', tags),
    ]);
    const plan = (events: string[]) => {
      const store = memoryRecords();
      const index = new DesiredIndex();
      index.keep(feed.map((l) => index.add(desiredOf(l, l.MLSNumber ?? '', 'acme', tags, store))));
      const loader = {
        load: (e: { ref: number }) => {
          events.push('compare');
          return store.get(e.ref);
        },
      };
      return { index, loader };
    };
    const expectedEvents: string[] = [];
    const one = plan(expectedEvents);
    const sink = remoteEntries('MLSNumber', tags, one.index, one.loader);
    for (const [id, stored] of onPlatform) sink.keep(1, remote(id, stored));
    const expected = rows(sink.finish().listings);

    const pageSize = 1000;
    const texts = Array.from({ length: Math.ceil(count / pageSize) }, (_, p) =>
      JSON.stringify({
        Data: {
          List: onPlatform
            .slice(p * pageSize, (p + 1) * pageSize)
            .map(([id, l]) => listRecordOf(id, l) as RemoteRecord),
        },
        Code: 200,
      }),
    );
    const joinWith = async (fail?: number) => {
      const events: string[] = [];
      const two = plan(events);
      const book = new RemoteBook();
      texts.forEach((text, p) => {
        book.add(p + 1, decodePage(text, 'MLSNumber', tags, p));
      });
      let batch = 0;
      const records = async (refs: readonly number[]) => {
        const n = batch++;
        events.push(`ask ${refs.length}`);
        await new Promise((done) => setTimeout(done, 5));
        if (n === fail) throw new Error(`batch ${n} failed`);
        // Each page's records parsed once a batch.
        const byPage = new Map<number, Listing[]>();
        return refs.map((ref) => {
          const page = Math.floor(ref / PAGE_SPAN);
          let parsed = byPage.get(page);
          if (parsed === undefined) {
            const onPage = Math.min(pageSize, count - page * pageSize);
            parsed = recordsOf(texts[page]!, [...Array(onPage).keys()]) as Listing[];
            byPage.set(page, parsed);
          }
          return parsed[ref % PAGE_SPAN]!;
        });
      };
      return { events, joined: book.join(two.index, two.loader, records) };
    };

    const { events, joined } = await joinWith();
    expect(rows((await joined).finish().listings)).toEqual(expected);
    // Each batch asked for before the one before it is compared.
    const asks = events.flatMap((e, at) => (e.startsWith('ask') ? [[e, at] as const] : []));
    expect(asks.map(([e]) => e)).toEqual(['ask 1000', 'ask 1000', 'ask 1000', 'ask 1000', 'ask 100']);
    expect(asks.map(([, at]) => at)).toEqual([0, 1, 1002, 2003, 3004]);
    expect(events.filter((e) => e === 'compare')).toHaveLength(count);
    // A batch that fails fails the join, whether it was asked for ahead or first.
    for (const fail of [0, 1, 4]) {
      const failing = await joinWith(fail);
      await expect(failing.joined).rejects.toThrow(`batch ${fail} failed`);
    }
  });

  it('is joined with the feed it was attached to, and no other', async () => {
    const index = new DesiredIndex();
    index.keep([]);
    const book = new RemoteBook();
    book.attach(index);
    expect(() => book.attach(index)).toThrow(/attached twice/);
    await expect(
      book.join(new DesiredIndex(), { load: () => ({}) as Listing }, async () => []),
    ).rejects.toThrow(/another feed/);
  });
});
