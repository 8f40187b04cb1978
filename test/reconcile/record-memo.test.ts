import { afterAll, describe, expect, it } from 'vitest';
import { decodePool } from '../../src/reconcile/decode-pool.ts';
import type { RunReport } from '../../src/reconcile/index.ts';
import { listing } from '../../src/testing/listing.ts';
import { memoryMemo } from '../../src/testing/memory-memo.ts';
import { LISTING_MAPPING, recordsFeed } from '../../src/testing/records-feed.ts';
import type { FeedInput } from './fixtures.ts';
import { type Harness, startHarness } from './harness.ts';

// The record memo must never change a result: each scenario runs the same syncs with a memo and
// without one, and compares what the runs did and what the platform holds.
afterAll(() => decodePool.stop());

const DAY = 86_400_000;
const D = Date.UTC(2025, 5, 10);
type Step = {
  records: Record<string, unknown>[];
  now?: Date;
  before?: () => void;
  edit?: (h: Harness) => Promise<void>;
};
const figures = (r: RunReport) => ({
  created: r.created,
  updated: r.updated,
  deleted: r.deleted,
  unchanged: r.unchanged,
  rejected: r.rejected,
  outcome: r.outcome,
});

async function both(feed: FeedInput, steps: Step[]) {
  const results = [];
  for (const withMemo of [false, true]) {
    const h = await startHarness([feed]);
    const memo = withMemo ? memoryMemo() : undefined;
    const reports: RunReport[] = [];
    try {
      for (const step of steps) {
        step.before?.();
        await step.edit?.(h);
        reports.push(
          await h.sync(
            h.feed(),
            recordsFeed(step.records),
            {},
            {
              ...(memo ? { memo } : {}),
              ...(step.now ? { now: () => step.now as Date } : {}),
            },
          ),
        );
      }
      const platform = h.sandbox
        .listings('SN-1')
        .map(({ ID: _id, ...rest }) => rest)
        .sort((a, b) => String(a.MLSNumber).localeCompare(String(b.MLSNumber)));
      results.push({ reports, figures: reports.map(figures), platform });
    } finally {
      await h.close();
    }
  }
  const [without, withMemo] = results as [(typeof results)[0], (typeof results)[0]];
  expect(withMemo.figures).toEqual(without.figures);
  expect(withMemo.platform).toEqual(without.platform);
  return { without, withMemo };
}

/** A listing changed on the platform behind the feed (another tool's edit): RealEstateUpdate. */
async function editOnPlatform(h: Harness, key: string, fields: Record<string, unknown>) {
  const answer = await fetch(`${h.sandbox.url}/chat/Chatbot/RealEstateUpdate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ SerialNumber: 'SN-1', Key: key, KeyType: 'MLSNumber', ...fields }),
  });
  expect(answer.ok).toBe(true);
}

const domMapping = {
  ...LISTING_MAPPING,
  fields: { ...LISTING_MAPPING.fields, DaysOnMarket: { daysSince: 'ListDate' } },
};

describe('the record memo never changes a result', () => {
  it('a daysSince rule: the next UTC day maps every record again', async () => {
    const records = [1, 2, 3].map((n) => ({ ...listing(n), ListDate: '2025-06-01' }));
    const { withMemo } = await both({ mapping: domMapping }, [
      { records, now: new Date(D - 1) },
      { records, now: new Date(D - 2) },
      { records, now: new Date(D + DAY / 2) },
    ]);
    expect(withMemo.reports.map((r) => r.known)).toEqual([0, 3, 0]);
    expect(withMemo.reports[2]).toMatchObject({ updated: 3 });
    expect(withMemo.platform.map((l) => l.DaysOnMarket)).toEqual([9, 9, 9]);
  });

  it('a memo is used for a day at most: then every record is mapped again', async () => {
    const records = [1, 2].map((n) => listing(n));
    const { withMemo } = await both({}, [
      { records, now: new Date(D) },
      { records, now: new Date(D + DAY - 1) },
      { records, now: new Date(D + DAY + 1) },
      { records, now: new Date(D + DAY + 2) },
    ]);
    // The memo the third run left was built then: the fourth uses it.
    expect(withMemo.reports.map((r) => r.known)).toEqual([0, 2, 0, 2]);
  });

  it('a key with a lone surrogate is not memoized (UTF-8 would not give it back)', async () => {
    const records = [listing(1, { MLSNumber: 'MLS-0001\uD800' }), listing(2)];
    const { withMemo } = await both({}, [{ records }, { records }, { records }]);
    expect(withMemo.reports.map((r) => r.known)).toEqual([0, 1, 1]);
    expect(withMemo.reports[2]).toMatchObject({ created: 0, unchanged: 2 });
  });

  it('nested fields (XML, RESO) are known, and a listing edited on the platform is written back whole from them', async () => {
    const nested = (n: number, price: string) => ({
      Listing: { Id: `MLS-${n}`, Price: { '#text': price, '@currency': 'USD' } },
      Facts: [{ Beds: '3' }, { Baths: 2, Pool: true, Note: null }],
      Address: `${n} Main St`,
    });
    const mapping = {
      fields: {
        MLSNumber: 'Listing.Id',
        Status: { const: 'Active' },
        SaleType: { const: 'for_sale' },
        PropertyType: { const: 'Condo' },
        SalePrice: 'Listing.Price.#text',
        CurrencySymbol: { const: '$' },
        Bedrooms: 'Facts.Beds',
        Bathrooms: 'Facts.Baths',
        Address: 'Address',
        City: { const: 'Springfield' },
        Url: { template: 'https://nested.example/{Listing.Id}' },
      },
    };
    const records = [nested(1, '300000'), nested(2, '410000')];
    const edit = async (h: Harness) => {
      if (h.sandbox.listings('SN-1').length > 0)
        await editOnPlatform(h, 'MLS-2', { SalePrice: 1, Bedrooms: 9 });
    };
    const { withMemo } = await both({ mapping }, [{ records }, { records, edit }]);
    expect(withMemo.reports.map((r) => r.known)).toEqual([0, 2]);
    expect(withMemo.reports[1]).toMatchObject({ updated: 1, unchanged: 1 });
    expect(withMemo.platform.find((l) => l.MLSNumber === 'MLS-2')).toMatchObject({
      SalePrice: 410000,
      Bedrooms: 3,
    });
  });

  it("a CSV's rows kept by their values alone, and one without them, are written back whole", async () => {
    // All text, as a CSV's rows are; the third has a column more, so it is kept by names and values.
    const row = (n: number, price: string, extra?: string) => ({
      MLSNumber: `MLS-${n}`,
      Status: 'Active',
      SaleType: 'for_sale',
      PropertyType: 'Condo',
      SalePrice: price,
      CurrencySymbol: '$',
      Bedrooms: '3',
      Bathrooms: '2',
      Address: `${n} "Main" St, Apt \\ 2`,
      City: 'Montréal',
      Url: `https://flat.example/${n}`,
      ...(extra === undefined ? {} : { Extra: extra }),
    });
    const mapping = { fields: Object.fromEntries(Object.keys(row(1, '1')).map((name) => [name, name])) };
    // As the CSV reader gives a row of the header's width: its values, and the feed's one names array.
    const names = Object.keys(row(1, '1'));
    const csvRow = (fields: Record<string, string>, at: number) =>
      Object.keys(fields).length === names.length
        ? { row: at + 2, fields, values: Object.values(fields), names }
        : { row: at + 2, fields };
    const records = [row(1, '300000'), row(2, '410000'), row(3, '520000', 'x')].map(csvRow);
    const edit = async (h: Harness) => {
      if (h.sandbox.listings('SN-1').length === 0) return;
      for (const key of ['MLS-2', 'MLS-3']) await editOnPlatform(h, key, { SalePrice: 1, City: 'X' });
    };
    const { withMemo } = await both({ mapping }, [{ records }, { records, edit }]);
    expect(withMemo.reports.map((r) => r.known)).toEqual([0, 3]);
    expect(withMemo.reports[1]).toMatchObject({ updated: 2, unchanged: 1 });
    expect(withMemo.platform.find((l) => l.MLSNumber === 'MLS-2')).toMatchObject({
      SalePrice: 410000,
      City: 'Montréal',
      Address: '2 "Main" St, Apt \\ 2',
    });
    expect(withMemo.platform.find((l) => l.MLSNumber === 'MLS-3')).toMatchObject({ SalePrice: 520000 });
  });

  it('a record with an unknown marker is known with it: the report counts it as without a memo', async () => {
    const records = [listing(1), { ...listing(2), YearBuilt: '', Bedrooms: '' }];
    const mapping = {
      ...LISTING_MAPPING,
      missing: { YearBuilt: 'unknown' as const, Bedrooms: 'unknown' as const },
    };
    const { withMemo, without } = await both({ mapping }, [{ records }, { records }]);
    expect(withMemo.reports.map((r) => r.known)).toEqual([0, 2]);
    expect(withMemo.reports[1]?.unknownMarkers).toEqual({ YearBuilt: 1, Bedrooms: 1 });
    // In the same order too: the text report lists them as the object holds them.
    expect(Object.keys(withMemo.reports[1]?.unknownMarkers ?? {})).toEqual(
      Object.keys(without.reports[1]?.unknownMarkers ?? {}),
    );
  });

  it('duplicate keys and keys with spaces around them: the last record of a key wins, as without a memo', async () => {
    const records = [
      listing(1, { SalePrice: 100_000 }),
      listing(2, { MLSNumber: ' MLS-0002 ' }),
      listing(1, { SalePrice: 200_000 }),
    ];
    const { withMemo } = await both({}, [{ records }, { records }]);
    expect(withMemo.reports[1]?.known).toBe(3);
    expect(withMemo.platform.find((l) => l.MLSNumber === 'MLS-0001')?.SalePrice).toBe(200_000);
  });

  it("frees the memo's bytes it read once the feed is read, and the next run still knows every record", async () => {
    const h = await startHarness([{}]);
    const store = memoryMemo();
    const read: Uint8Array[] = [];
    const memo = {
      ...store,
      read: (feedId: string) => {
        const bytes = store.read(feedId);
        // The record memo's (the same store keeps the page memo under an id of its own).
        if (bytes && feedId === 'feed1') read.push(bytes);
        return bytes;
      },
    };
    try {
      const records = Array.from({ length: 300 }, (_, n) => listing(n + 1));
      await h.sync(h.feed(), recordsFeed(records), {}, { memo });
      expect(await h.sync(h.feed(), recordsFeed(records), {}, { memo })).toMatchObject({ known: 300 });
      expect(read.length).toBeGreaterThan(0);
      expect(read.every((bytes) => (bytes.buffer as ArrayBuffer).detached)).toBe(true);
      expect(await h.sync(h.feed(), recordsFeed(records), {}, { memo })).toMatchObject({ known: 300 });
    } finally {
      await h.close();
    }
  });

  it('a memo wrong about a record (its digest) is deleted, and the run is still right', async () => {
    const h = await startHarness([{}]);
    const memo = memoryMemo();
    try {
      const records = [1, 2, 3].map((n) => listing(n));
      await h.sync(h.feed(), recordsFeed(records), {}, { memo });
      // Every entry's digest made wrong, and the checksum made again: a memo that lies.
      const bytes = memo.files.get('feed1')!;
      for (let at = 32; at < bytes.length; at += 30 + bytes.readUInt16LE(at + 28))
        bytes.writeDoubleLE(bytes.readDoubleLE(at + 8) + 1, at + 8);
      const { crc32 } = await import('node:zlib');
      bytes.writeUInt32LE(crc32(bytes.subarray(32)), 24);
      const before = h.sandbox.listings('SN-1');
      const report = await h.sync(h.feed(), recordsFeed(records), {}, { memo });
      expect(report).toMatchObject({ known: 3, updated: 0, unchanged: 3, outcome: 'ok' });
      expect(h.sandbox.listings('SN-1')).toEqual(before);
      expect(memo.files.has('feed1')).toBe(false);
      const next = await h.sync(h.feed(), recordsFeed(records), {}, { memo });
      expect(next).toMatchObject({ known: 0, unchanged: 3 });
      expect(memo.files.has('feed1')).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('a run that fails, a feed with no record, or an incremental read leaves the last memo as it was, and no memo open', async () => {
    const h = await startHarness([{}]);
    const memo = memoryMemo();
    try {
      const records = [1, 2, 3].map((n) => listing(n));
      await h.sync(h.feed(), recordsFeed(records), {}, { memo });
      const first = memo.files.get('feed1');
      expect(first).toBeDefined();
      // The feed fails after its first records.
      const failing: typeof recordsFeed = () => async (feed, deps) => {
        const opened = await recordsFeed([listing(1), listing(2)])(feed, deps);
        return {
          ...opened,
          records: (async function* () {
            for await (const batch of opened.records) yield batch;
            throw new Error('connection reset');
          })(),
        };
      };
      expect(await h.sync(h.feed(), failing([]), {}, { memo })).toMatchObject({ outcome: 'failed' });
      // No record at all: fails before the pages are asked for.
      const empty = await h.sync(h.feed(), recordsFeed([]), {}, { memo });
      expect(empty).toMatchObject({ outcome: 'failed' });
      expect(empty.apiCalls.list).toBe(0);
      // An incremental read (RESO since its watermark) knows some records: it leaves the full memo.
      const incremental = await h.sync(
        h.feed(),
        recordsFeed([listing(2)], { mode: 'incremental' }),
        {},
        { memo },
      );
      expect(incremental).toMatchObject({ known: 1, unchanged: 1 });
      expect(memo.files.get('feed1')).toBe(first);
      expect(memo.open).toBe(0);
      // And the full run after it knows every record.
      expect(await h.sync(h.feed(), recordsFeed(records), {}, { memo })).toMatchObject({ known: 3 });
      expect(memo.open).toBe(0);
    } finally {
      await h.close();
    }
  });
});
