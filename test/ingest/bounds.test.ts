import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestFeed, readFeed } from '../../src/ingest/index.ts';
import { FeedError } from '../../src/sources/index.ts';
import { listings } from '../../src/testing/listing.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { type Harness, startHarness } from '../reconcile/harness.ts';
import { type TestServer, withServer } from './helpers.ts';

/**
 * A gzip bomb: `header`, then `copies` gzip members of 4 MiB of `row` each, back to back (a gzip
 * file may hold several members, and gunzip reads them all). Compressed once, repeated: instant.
 */
function gzipBomb(header: string, row: string, copies: number): Buffer {
  const member = gzipSync(Buffer.from(row.repeat(Math.floor((4 * 1024 * 1024) / row.length))), { level: 9 });
  return Buffer.concat([gzipSync(header), ...Array<Buffer>(copies).fill(member)]);
}

async function failureOf(promise: Promise<unknown>): Promise<FeedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FeedError);
  return error as FeedError;
}

let server: TestServer | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await server?.close();
  await h?.close();
  server = undefined;
  h = undefined;
});

describe('bounded inputs', () => {
  it('cuts a URL feed that drips bytes at source.deadlineMs, naming feed and host; the sync deletes nothing', async () => {
    const drips = new Set<NodeJS.Timeout>();
    server = await withServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('MLS #,Status\n');
      // One byte every 20 ms: never idle long enough for the per-attempt timeout.
      const drip = setInterval(() => res.write('A'), 20);
      drips.add(drip);
      req.socket.on('close', () => clearInterval(drip));
    });
    const feed = fixtureFeed('acme', {
      id: 'drip',
      source: {
        path: undefined,
        url: `${server.url}/slow.csv`,
        timeoutMs: 5000,
        retries: 0,
        deadlineMs: 300,
      },
    });
    const error = await failureOf(ingestFeed(feed, { state: {} }));
    for (const drip of drips) clearInterval(drip);
    expect(error.code).toBe('E_FEED_FETCH');
    expect(error.message).toMatch(
      /^feed drip: the download from 127\.0\.0\.1:\d+ did not finish within source\.deadlineMs \(300 ms\); nothing was changed$/,
    );

    // Through a sync: the run fails like any failed source and the listings stay.
    h = await startHarness();
    await h.sync(h.feed(), listings(1, 10));
    const report = await h.sync(h.feed(), () => ingestFeed(feed, { state: {} }));
    for (const drip of drips) clearInterval(drip);
    expect(report).toMatchObject({ outcome: 'failed', deleted: 0 });
    expect(report.reason).toContain('did not finish within source.deadlineMs');
    expect(h.keys()).toHaveLength(10);
  });

  it('stops a gzip bomb at source.maxBytes, having read no more than that', async () => {
    const header = 'MLS #,Status\n';
    const row = 'X-1,Active\n';
    // 256 members of 4 MiB: 1 GiB inflated, about 1 MiB on disk.
    const bomb = gzipBomb(header, row, 256);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-bomb-'));
    const path = join(dir, 'bomb.csv.gz');
    await writeFile(path, bomb);
    const maxBytes = 128 * 1024;
    const feed = fixtureFeed('acme', { id: 'bomb', source: { path, csv: { skipRows: 0 }, maxBytes } });
    let records = 0;
    const heapBefore = process.memoryUsage().heapUsed;
    const error = await failureOf(
      (async () => {
        for await (const _item of readFeed(feed, { state: {} })) records++;
      })(),
    );
    expect(error.code).toBe('E_FEED_UNSAFE');
    expect(error.message).toBe(
      'feed bomb: the feed is larger than source.maxBytes (128 KiB) once decompressed (a gzip bomb?); raise source.maxBytes if it is real',
    );
    // Stopped at the cap: at most the rows that fit in 128 KiB were read (of 97 Mi), and memory stayed flat.
    expect(records).toBeLessThanOrEqual(maxBytes / row.length);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    // The same through ingestFeed, the run's path.
    expect((await failureOf(ingestFeed(feed, { state: {} }))).code).toBe('E_FEED_UNSAFE');
  });

  it('stops a runaway quoted field at csv.maxRecordBytes, naming its row', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-runaway-'));
    const path = join(dir, 'runaway.csv');
    const good = 'A-1,Active\nA-2,Active\n\nA-3,Active\n';
    // Row 5 opens a quote that never closes: the rest of the file would become one field.
    await writeFile(path, `MLS #,Status\n${good}A-4,"Active\n${'x,y\n'.repeat(300_000)}`);
    const feed = fixtureFeed('acme', {
      id: 'runaway',
      source: { path, csv: { skipRows: 0, maxRecordBytes: 64 * 1024 } },
    });
    const error = await failureOf(ingestFeed(feed, { state: {} }));
    expect(error.code).toBe('E_FEED_PARSE');
    expect(error.message).toBe(
      'feed runaway: row 6: a record is larger than csv.maxRecordBytes (64 KiB); an unclosed quote?',
    );
  });
});
