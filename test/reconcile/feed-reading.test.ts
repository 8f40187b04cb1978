import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FeedConfig } from '../../src/config/schema.ts';
import { BROKEN_ROWS_KEPT, ingestFeed } from '../../src/ingest/index.ts';
import { decodePool } from '../../src/reconcile/decode-pool.ts';
import type { RunReport, SyncDeps } from '../../src/reconcile/index.ts';
import { UNREAD_KEPT } from '../../src/reconcile/remote-entries.ts';
import { renderReport } from '../../src/render/index.ts';
import { memoryMemo } from '../../src/testing/memory-memo.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { type TestServer, withServer } from '../ingest/helpers.ts';
import { type Harness, startHarness } from './harness.ts';

// A feed reading (src/reconcile/feed-reading.ts): a run that finds the file's bytes as the last run
// read them reuses that run's reading, reads no record, and must end as a run that read the file.
afterAll(() => decodePool.stop());

const HEADER =
  'MLS #,Status,Type,List Price,Beds,Baths Full,Baths Half,Sq Ft,Lot Acres,Year Built,DOM,Garage,Address,City,State,Zip,Remarks,Photos,Agent\n';
function row(i: number, price = `"$${400 + i},000"`, status = 'Active'): string {
  return `R-${i},${status},Single Family,${price},3,2,1,"${1500 + i} sqft",0.25,1990,${i},2,${i} Oak Street,Springfield,IL,62701,"Remarks for ${i}",https://img.example/${i}/1.jpg,Pat\n`;
}
/** 20 listings, one rejected (its price a word: its key held), one withdrawn (a removal). */
function feedText(change: (i: number) => string = (i) => row(i)): string {
  let text = HEADER;
  for (let i = 1; i <= 20; i++) text += change(i);
  text += row(21, 'call');
  text += row(22, '"$1,000"', 'Withdrawn');
  return text;
}

const figures = (r: RunReport) => ({
  outcome: r.outcome,
  created: r.created,
  updated: r.updated,
  deleted: r.deleted,
  unchanged: r.unchanged,
  rejected: r.rejected,
  held: r.held,
  read: r.read,
  unknownMarkers: r.unknownMarkers,
  rejections: r.rejections.map((x) => [x.row, x.field, x.reason]),
});

const dirs: string[] = [];
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setup(overrides: Parameters<typeof fixtureFeed>[1] = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'feed-reading-'));
  dirs.push(dir);
  const path = join(dir, 'feed.csv');
  const feed = fixtureFeed('acme', { source: { path, csv: { skipRows: 0 } }, chatbot: 'SN-1', ...overrides });
  const h = await startHarness();
  harnesses.push(h);
  const memo = memoryMemo();
  const run = (
    options: { forceFull?: boolean; now?: Date; feed?: FeedConfig; onProgress?: SyncDeps['onProgress'] } = {},
  ) =>
    h.sync(
      options.feed ?? (feed as FeedConfig),
      undefined,
      { forceFull: options.forceFull ?? true },
      {
        memo,
        ...(options.now ? { now: () => options.now as Date } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      },
    );
  return { h, path, feed: feed as FeedConfig, memo, run };
}

describe('a feed reading', () => {
  it('is reused for the same bytes: no record read, the same figures, nothing written', async () => {
    const { path, memo, run } = await setup();
    writeFileSync(path, feedText());
    const first = await run();
    expect(first.created).toBe(20);
    expect(first.reusedReading).toBeUndefined();
    expect(memo.files.has('acme@reading')).toBe(true);

    // Rewritten with the same bytes (a feed republished as it was): another mtime, the same reading.
    writeFileSync(path, feedText());
    utimesSync(path, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    const second = await run();
    expect(second.reusedReading).toMatch(/^[0-9a-f]{64}$/);
    expect(figures(second)).toEqual({ ...figures(first), created: 0, unchanged: 20 });
    expect(second.created + second.updated + second.deleted).toBe(0);
  });

  it('is not reused when a byte changed: the run reads the feed, and the pages once (a tester: twice within the size)', async () => {
    const { h, path, run } = await setup();
    writeFileSync(path, feedText());
    await run();
    // The same size: the reading looked likely, and the pages were asked for while the file was digested.
    writeFileSync(
      path,
      feedText((i) => (i === 7 ? row(7, '"$999,000"') : row(i))),
    );
    h.sandbox.resetStats();
    const second = await run();
    expect(second.reusedReading).toBeUndefined();
    expect(h.sandbox.stats().requests.list).toBe(1);
    expect(second.updated).toBe(1);
    expect(h.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'R-7')?.SalePrice).toBe(999000);
  });

  it('repairs a listing deleted on the platform: its record read from the file, the pages not read again', async () => {
    const { h, path, run } = await setup();
    writeFileSync(path, feedText());
    await run();
    await post(h, 'RealEstateDelete', { Keys: ['R-4'], KeyType: 'MLSNumber' });
    const notes: string[] = [];
    h.sandbox.resetStats();
    const repaired = await run({ onProgress: (p) => void (p.note && notes.push(p.note)) });
    // The reading stands (the plan it made is the one applied): the records are read from the file.
    expect(repaired.reusedReading).toBeDefined();
    expect(notes).toEqual([
      'the feed is unchanged, but listings on the platform differ from it: reading its records to write them',
    ]);
    expect([repaired.created, repaired.updated, repaired.unchanged]).toEqual([1, 0, 19]);
    expect(repaired.reusedReadingRecordsRead).toBe(true);
    expect(renderReport(repaired)).toContain(
      "the file's records read to write the listings the platform lost or changed",
    );
    expect(h.keys()).toContain('R-4');
    // The pages read once (20 listings, PageSize 50: a page, and one asked for beside it at most); a
    // run that started over to read the records read them twice.
    expect(h.sandbox.stats().requests.list).toBeLessThanOrEqual(2);
    const again = await run();
    expect(again.reusedReading).toBeDefined();
    expect(again.reusedReadingRecordsRead).toBeUndefined();
    expect(renderReport(again)).toContain('not read again, its records taken from the record memo');
    expect(again.unchanged).toBe(20);
  });

  it('clears a value typed in where the feed leaves the field unset: a replace from the reading', async () => {
    const { h, path, run } = await setup();
    const bare = (i: number) => (i === 5 ? row(5).replace('"Remarks for 5"', '""') : row(i));
    writeFileSync(path, feedText(bare));
    await run();
    await post(h, 'RealEstateUpdate', { Key: 'R-5', KeyType: 'MLSNumber', Description: 'typed by hand' });
    const repaired = await run();
    expect(repaired.reusedReading).toBeDefined();
    expect(repaired).toMatchObject({ updated: 1, replaced: 1, failedCount: 0 });
    expect(repaired.changes?.find((c) => c.key === 'R-5')).toMatchObject({ op: 'replace' });
    expect(h.sandbox.listings('SN-1').filter((l) => l.MLSNumber === 'R-5')).toHaveLength(1);
    expect(h.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'R-5')?.Description).toBeUndefined();
    expect((await run()).unchanged).toBe(20);
  });

  it('repairs a listing edited on the platform: compared again once its record is read, the pages not read again', async () => {
    const { h, path, run } = await setup();
    writeFileSync(path, feedText());
    await run();
    await post(h, 'RealEstateUpdate', { Key: 'R-3', KeyType: 'MLSNumber', SalePrice: 1 });
    const notes: string[] = [];
    h.sandbox.resetStats();
    const repaired = await run({ onProgress: (p) => void (p.note && notes.push(p.note)) });
    // The reading stands: its records are read from the file, and R-3 compared again with its own.
    expect(repaired.reusedReading).toBeDefined();
    expect(repaired.reusedReadingRecordsRead).toBe(true);
    expect(notes).toEqual([
      'the feed is unchanged, but listings on the platform differ from it: reading its records to write them',
    ]);
    expect([repaired.updated, repaired.created, repaired.unchanged]).toEqual([1, 0, 19]);
    expect(repaired.changes?.find((c) => c.key === 'R-3')?.fields).toEqual([
      expect.objectContaining({ field: 'SalePrice', from: 1, to: 403000 }),
    ]);
    expect(h.sandbox.stats().requests.list).toBe(1);
    expect(h.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'R-3')?.SalePrice).toBe(403000);
    expect((await run()).unchanged).toBe(20);
  });

  it('holds a listing whose key a keyless row still names, and deletes the sold one beside it', async () => {
    const { h, path, run } = await setup();
    writeFileSync(path, feedText());
    expect((await run()).created).toBe(20);
    // Row of R-7: its MLS # blanked by the export, its photo's URL still naming it; R-9 sold and gone.
    const keyless = row(7)
      .replace(/^R-7,/, ',')
      .replace('https://img.example/7/1.jpg', 'https://img.example/R-7');
    writeFileSync(
      path,
      feedText((i) => (i === 7 ? keyless : i === 9 ? '' : row(i))),
    );
    const next = await run();
    expect(next.deleted).toBe(1);
    expect(next.changes?.filter((c) => c.op === 'delete').map((c) => c.key)).toEqual(['R-9']);
    expect(h.keys()).toContain('R-7');
    expect(next.heldKeys?.find((k) => k.key === 'R-7')?.message).toMatch(
      /key appears in row \d+ of feed\.csv, which has no MLSNumber/,
    );
  });

  it('counts keyless rows past the room kept, as broken rows are: then nothing gone is deleted', async () => {
    const { path, feed } = await setup();
    const long = 'x'.repeat(400);
    let text = HEADER;
    for (let i = 1; i <= BROKEN_ROWS_KEPT + 1; i++)
      text += row(i)
        .replace(/^R-\d+,/, ',')
        .replace(`Remarks for ${i}`, `${long} R-${i}`);
    writeFileSync(path, text);
    const result = await ingestFeed(feed, { state: {} });
    expect(result.brokenRows).toHaveLength(BROKEN_ROWS_KEPT);
    expect(result.brokenRowsOmitted).toBe(1);
    // Only what names a key exactly is kept: the URL's last segment, not the description's words.
    expect(result.brokenRows?.[0]?.cells).toEqual(['1.jpg']);
    expect(result.brokenRows?.[0]?.exact).toBe(true);
  }, 60_000);

  it('reads the feed when more listings were edited on the platform than it compares again (UNREAD_KEPT), and repairs them all', async () => {
    const { h, path, run } = await setup();
    const count = UNREAD_KEPT + 1;
    let text = HEADER;
    for (let i = 1; i <= count; i++) text += row(i);
    writeFileSync(path, text);
    expect((await run()).created).toBe(count);
    // Every listing's price changed on the platform (deleted and put back as edited: the sandbox has
    // no bulk edit), so each differs in a field the feed sets, its changes unknown without its record.
    const edited = h.sandbox.listings('SN-1').map(({ ID: _id, SerialNumber: _serial, ...listing }) => ({
      ...listing,
      SalePrice: 1,
    }));
    for (let i = 0; i < edited.length; i += 500)
      await post(h, 'RealEstateDelete', {
        Keys: edited.slice(i, i + 500).map((l) => l.MLSNumber),
        KeyType: 'MLSNumber',
      });
    h.sandbox.seed('SN-1', edited);
    const notes: string[] = [];
    const repaired = await run({ onProgress: (p) => void (p.note && notes.push(p.note)) });
    expect(notes).toEqual([
      'the feed is unchanged, but more listings on the platform differ from it than a reused reading compares again: reading the feed to write them',
    ]);
    // The run read the feed (no reading reused) and wrote every listing back: none lost, none twice.
    expect(repaired.reusedReading).toBeUndefined();
    expect([repaired.outcome, repaired.updated, repaired.created, repaired.deleted]).toEqual([
      'ok',
      count,
      0,
      0,
    ]);
    const prices = h.sandbox.listings('SN-1').map((l) => l.SalePrice);
    expect(prices).toHaveLength(count);
    expect(prices.filter((price) => price === 1)).toEqual([]);
    expect((await run()).unchanged).toBe(count);
  }, 120_000);

  it('clears what an edit on the platform added where the feed sets fields on others: a replace, guards counted', async () => {
    const { h, path, run } = await setup();
    const bare = (i: number) => (i === 5 ? row(5).replace('"Remarks for 5"', '""') : row(i));
    writeFileSync(path, feedText(bare));
    await run();
    // A price the feed sets, and a description it leaves unset on R-5: the edit's two changes.
    await post(h, 'RealEstateUpdate', {
      Key: 'R-5',
      KeyType: 'MLSNumber',
      SalePrice: 2,
      Description: 'typed by hand',
    });
    const repaired = await run();
    expect(repaired.reusedReading).toBeDefined();
    expect(repaired).toMatchObject({ updated: 1, replaced: 1, failedCount: 0 });
    const fields = repaired.changes?.find((c) => c.key === 'R-5')?.fields?.map((f) => f.field);
    expect(fields?.sort()).toEqual(['Description', 'SalePrice']);
    const after = h.sandbox.listings('SN-1').filter((l) => l.MLSNumber === 'R-5');
    expect(after).toHaveLength(1);
    expect(after[0]?.Description).toBeUndefined();
    expect(after[0]?.SalePrice).toBe(405000);
    expect((await run()).unchanged).toBe(20);
  });

  it('holds nothing it should delete: a listing gone from the platform feed is deleted as without one', async () => {
    const { h, path, run } = await setup();
    writeFileSync(path, feedText());
    await run();
    // Another listing of this feed on the platform, not in the file (a sold home a crash left).
    await post(h, 'RealEstateCreate', {
      ...h.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'R-1'),
      ID: undefined,
      MLSNumber: 'R-99',
      Url: 'https://acme.example/listing/R-99',
    });
    const run2 = await run();
    expect(run2.reusedReading).toBeDefined();
    expect(run2.deleted).toBe(1);
    expect(h.keys()).not.toContain('R-99');
  });

  it('is not kept for a feed with a repeated key, nor reused under another mapping or on another day', async () => {
    const { path, feed, run } = await setup({ mapping: { fields: { DaysOnMarket: { daysSince: 'DOM' } } } });
    const day = Date.UTC(2026, 10, 30, 12);
    const dated = (i: number) => row(i).replace(`,${i},2,${i} Oak`, `,2026-11-0${(i % 9) + 1},2,${i} Oak`);
    writeFileSync(path, feedText(dated));
    await run({ now: new Date(day) });
    expect((await run({ now: new Date(day + 3_600_000) })).reusedReading).toBeDefined();
    // The next UTC day: days on market changed, the reading is another one.
    const nextDay = await run({ now: new Date(day + 86_400_000) });
    expect(nextDay.reusedReading).toBeUndefined();
    expect(nextDay.updated).toBe(20);
    // Another mapping (a config edit): not reused.
    const other = {
      ...feed,
      mapping: { ...feed.mapping, fields: { ...feed.mapping.fields, Description: 'Agent' } },
    };
    const remapped = await run({ now: new Date(day + 86_400_000), feed: other as FeedConfig });
    expect(remapped.reusedReading).toBeUndefined();
    expect(remapped.updated).toBe(20);
    // A repeated key: no reading is kept, the next run reads the feed and still writes nothing.
    writeFileSync(path, feedText(dated) + dated(5));
    await run({ now: new Date(day + 86_400_000), feed: other as FeedConfig });
    const repeated = await run({ now: new Date(day + 86_400_000), feed: other as FeedConfig });
    expect(repeated.reusedReading).toBeUndefined();
    expect(repeated.created + repeated.updated + repeated.deleted).toBe(0);
  });
});

describe('a feed reading, against what reading the file gives', () => {
  it('is not used by a scheduled run that skips the untouched file: it is skipped, as without one', async () => {
    const outcomes = [];
    for (const withMemo of [false, true]) {
      const { h, path, feed, memo } = await setup();
      writeFileSync(path, feedText());
      const scheduled = () => h.sync(feed, undefined, { trigger: 'schedule' }, withMemo ? { memo } : {});
      await scheduled();
      await post(h, 'RealEstateCreate', {
        ...ownListing(h, 'R-1'),
        MLSNumber: 'R-99',
        Url: 'https://acme.example/listing/R-99',
      });
      const second = await scheduled();
      outcomes.push([second.outcome, second.deleted, second.reusedReading]);
    }
    expect(outcomes).toEqual([
      ['skipped', 0, undefined],
      ['skipped', 0, undefined],
    ]);
  });

  it('is not kept for a memo that could not be written, nor used with a memo it does not name', async () => {
    const { h, path, feed, memo } = await setup();
    // The store's commit fails (a full disk at the rename): no memo, so no reading either.
    let failing = false;
    const flaky = {
      ...memo,
      read: memo.read,
      remove: memo.remove,
      stamp: memo.stamp,
      begin: (id: string) => {
        const sink = memo.begin(id);
        return failing && sink ? { ...sink, commit: () => (sink.abort(), false) } : sink;
      },
    };
    const run = () => h.sync(feed, undefined, { forceFull: true }, { memo: flaky });
    writeFileSync(path, feedText());
    await run();
    const firstReading = memo.files.get('acme@reading');
    expect(firstReading).toBeDefined();
    writeFileSync(
      path,
      feedText((i) => (i === 7 ? row(7, '"$999,000"') : row(i))),
    );
    failing = true;
    await run();
    failing = false;
    expect(memo.files.has('acme@reading')).toBe(false);
    // The changed file's memo written, then the first reading put back (a run killed between its
    // memo and its reading), the file too: the memo on disk is not the one the reading names.
    await run();
    memo.files.set('acme@reading', firstReading as Buffer);
    writeFileSync(path, feedText());
    const third = await run();
    expect([third.outcome, third.reusedReading, third.updated, third.unchanged]).toEqual([
      'ok',
      undefined,
      1,
      19,
    ]);
    expect(h.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'R-7')?.SalePrice).toBe(407000);
  });

  it("is used beside another feed's listing of the same key: only a write needs the record", async () => {
    const { h, path, run } = await setup();
    writeFileSync(path, feedText());
    await run();
    const other = ownListing(h, 'R-5');
    other.ExtensionColumn = (other.ExtensionColumn as { Key: string; value: string }[]).map((e) =>
      e.Key === 'feed-sync:feed' ? { ...e, value: 'other-feed' } : e,
    );
    other.Description = 'the other feed says otherwise';
    await post(h, 'RealEstateCreate', other);
    const second = await run();
    expect(second.reusedReading).toBeDefined();
    expect([second.outcome, second.created, second.updated, second.deleted, second.unchanged]).toEqual([
      'ok',
      0,
      0,
      0,
      20,
    ]);
  });
});

describe('a url: feed reading (its server says the feed is unchanged)', () => {
  /**
   * The feed served as a download (`text`, at `version`) with a strong ETag (`validators`: a weak
   * one, a Last-Modified date alone, or none), answering 304 to a request that asks about the
   * version it serves; `lying`: it answers 304 to the last version's ETag too, with the new one (a
   * server whose 304 is about other bytes). Each GET is noted as its status and whether it asked.
   */
  async function download(
    options: { validators?: 'strong' | 'weak' | 'last-modified' | 'none'; lying?: boolean } = {},
  ) {
    const validators = options.validators ?? 'strong';
    const served = { text: feedText(), version: 1, gets: [] as string[] };
    const server: TestServer = await withServer((req, res) => {
      const etag = `${validators === 'weak' ? 'W/' : ''}"v${served.version}"`;
      const date = new Date(Date.UTC(2026, 0, served.version)).toUTCString();
      const tags =
        validators === 'none' ? {} : validators === 'last-modified' ? { 'last-modified': date } : { etag };
      const asked = req.headers['if-none-match'] ?? req.headers['if-modified-since'];
      const same =
        asked !== undefined &&
        (asked === etag ||
          asked === date ||
          (options.lying === true && asked === `"v${served.version - 1}"`));
      if (validators !== 'none' && same) {
        served.gets.push('304');
        return void res.writeHead(304, tags).end();
      }
      served.gets.push(asked === undefined ? '200' : '200 (asked)');
      res.writeHead(200, tags).end(served.text);
    });
    servers.push(server);
    const feed = fixtureFeed('acme', {
      source: { path: undefined, url: `${server.url}/feed.csv`, csv: { skipRows: 0 } },
      chatbot: 'SN-1',
    }) as FeedConfig;
    const h = await startHarness();
    harnesses.push(h);
    const memo = memoryMemo();
    const run = (
      options: { forceFull?: boolean; trigger?: 'schedule'; memo?: false; feed?: FeedConfig } = {},
    ) =>
      h.sync(
        options.feed ?? feed,
        undefined,
        {
          ...(options.forceFull ? { forceFull: true } : {}),
          ...(options.trigger ? { trigger: options.trigger } : {}),
        },
        options.memo === false ? {} : { memo },
      );
    return { h, served, run, memo, feed };
  }
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('compares from the reading on a 304: nothing downloaded or mapped, the same figures, nothing written', async () => {
    const { served, run, memo } = await download();
    const first = await run();
    expect(first.created).toBe(20);
    expect(first.reusedReading).toBeUndefined();
    expect(memo.files.has('acme@reading')).toBe(true);
    // A manual run (an unchanged feed is not skipped): it asks, the server says 304.
    const second = await run();
    expect(served.gets).toEqual(['200', '304']);
    expect(second.outcome).toBe('ok');
    expect(second.reusedReading).toMatch(/^[0-9a-f]{64}$/);
    expect(figures(second)).toEqual({ ...figures(first), created: 0, unchanged: 20 });
    // The feed changed (a new ETag): it asks, gets the new feed whole, reads it, keeps a new reading.
    served.text = feedText((i) => (i === 7 ? row(7, '"$999,000"') : row(i)));
    served.version = 2;
    const third = await run();
    expect(served.gets.at(-1)).toBe('200 (asked)');
    expect([third.reusedReading, third.updated, third.unchanged]).toEqual([undefined, 1, 19]);
    const fourth = await run();
    expect(served.gets.at(-1)).toBe('304');
    expect([fourth.reusedReading !== undefined, fourth.updated, fourth.unchanged]).toEqual([true, 0, 20]);
  });

  it('downloads the feed whole under --force-full, and when the plan needs a record', async () => {
    const { h, served, run } = await download();
    await run();
    const forced = await run({ forceFull: true });
    expect(served.gets).toEqual(['200', '200']);
    expect([forced.reusedReading, forced.unchanged]).toEqual([undefined, 20]);
    // A listing edited on the platform: the 304's reading has no record to write it from, so the
    // feed is downloaded (unconditionally) and the listing repaired.
    await post(h, 'RealEstateUpdate', { Key: 'R-3', KeyType: 'MLSNumber', SalePrice: 1 });
    const repaired = await run();
    expect(served.gets.slice(2)).toEqual(['304', '200']);
    expect([repaired.reusedReading, repaired.updated, repaired.unchanged]).toEqual([undefined, 1, 19]);
    expect(h.sandbox.listings('SN-1').find((l) => l.MLSNumber === 'R-3')?.SalePrice).toBe(403000);
  });

  it('keeps no reading without a strong ETag; a scheduled run still skips on a 304', async () => {
    for (const validators of ['none', 'weak', 'last-modified'] as const) {
      const bare = await download({ validators });
      await bare.run();
      expect(bare.memo.files.has('acme@reading')).toBe(false);
      const again = await bare.run();
      expect(bare.served.gets).toEqual(['200', '200']);
      expect([again.reusedReading, again.unchanged]).toEqual([undefined, 20]);
    }
    const { served, run } = await download();
    await run({ trigger: 'schedule' });
    const skipped = await run({ trigger: 'schedule' });
    expect(served.gets).toEqual(['200', '304']);
    expect([skipped.outcome, skipped.reusedReading]).toEqual(['skipped', undefined]);
  });

  it('never compares from a reading of other bytes: the state moved on, another mapping, a 304 about other bytes', async () => {
    // A run without the memo reads a new version (R-30 added): the state's ETag is no longer the
    // reading's. Asking with it would get a 304 for bytes the reading never saw, and R-30, on the
    // platform, would be deleted as gone from the feed.
    const moved = await download();
    await moved.run();
    moved.served.text = feedText() + row(30);
    moved.served.version = 2;
    expect((await moved.run({ memo: false })).created).toBe(1);
    const after = await moved.run();
    expect(moved.served.gets).toEqual(['200', '200', '200']);
    expect([after.reusedReading, after.deleted, after.unchanged]).toEqual([undefined, 0, 21]);
    expect(moved.h.keys()).toContain('R-30');

    // Another mapping (a config edit): the reading's listings are not this run's.
    const remapped = await download();
    await remapped.run();
    const other = {
      ...remapped.feed,
      mapping: {
        ...remapped.feed.mapping,
        fields: { ...remapped.feed.mapping.fields, Description: 'Agent' },
      },
    } as FeedConfig;
    const edited = await remapped.run({ feed: other });
    expect(remapped.served.gets).toEqual(['200', '200']);
    expect([edited.reusedReading, edited.updated]).toEqual([undefined, 20]);

    // A server that answers 304, with its new ETag, to the old one after the feed changed.
    const lying = await download({ lying: true });
    await lying.run();
    lying.served.text = feedText((i) => (i === 7 ? row(7, '"$999,000"') : row(i)));
    lying.served.version = 2;
    const read = await lying.run();
    expect(lying.served.gets).toEqual(['200', '304', '200']);
    expect([read.reusedReading, read.updated, read.unchanged]).toEqual([undefined, 1, 19]);
  });
});

/** A listing of the feed as the platform holds it, without its ID (to post again under another key). */
function ownListing(h: Harness, key: string): Record<string, unknown> {
  const { ID: _id, ...listing } = h.sandbox.listings('SN-1').find((l) => l.MLSNumber === key) as Record<
    string,
    unknown
  >;
  return listing;
}

async function post(h: Harness, op: string, body: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${h.sandbox.url}/chat/Chatbot/${op}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ SerialNumber: 'SN-1', ...body }),
  });
  expect(answer.ok).toBe(true);
}
