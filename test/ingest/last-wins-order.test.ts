import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';

const HEADER =
  'MLS #,Status,Type,List Price,Beds,Baths Full,Baths Half,Sq Ft,Lot Acres,Year Built,DOM,Garage,Address,City,State,Zip,Remarks,Photos,Agent\n';
const row = (key: string, status = 'Active', beds = '3') =>
  `${key},${status},Single Family,"$250,000",${beds},2,0,1800 sqft,0.2,1990,5,2,1 Main St,Springfield,IL,62701,Nice,https://img.example/${key}.jpg,Pat\n`;

describe('collectFeed: the last record of a key wins and takes its place at the end', () => {
  it('orders listings, removals and held keys by their last record; duplicates by their first', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-order-'));
    const path = join(dir, 'feed.csv');
    // A, B, A again, C, B again, D, E withdrawn, F rejected, then C withdrawn after all.
    const rows = [row('A'), row('B'), row('A'), row('C'), row('B'), row('D')];
    rows.push(row('E', 'Withdrawn'), row('F', 'Active', 'three'), row('C', 'Withdrawn'));
    await writeFile(path, `skip\nskip\n${HEADER}${rows.join('')}`);
    const feed = fixtureFeed('acme', { source: { path } });
    const result = await ingestFeed(feed, { state: {} });
    expect(result.listings.map((l) => l.MLSNumber)).toEqual(['A', 'B', 'D']);
    expect(result.removals).toEqual(['E', 'C']);
    expect([...result.held].map((h) => h.key)).toEqual(['F']);
    expect(result.duplicates.map((d) => [d.key, d.refs.map((r) => r.index)])).toEqual([
      ['A', [0, 2]],
      ['B', [1, 4]],
      ['C', [3, 8]],
    ]);
  });

  it('a key rejected twice holds with its last record: its row and its words, in the order of last records', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-order-'));
    const path = join(dir, 'feed.csv');
    // A rejected, A rejected again (other words), B rejected, C valid, D rejected then valid.
    const rows = [
      row('A', 'Active', 'three'),
      row('D', 'Active', 'x'),
      row('A', 'Active', 'four'),
      row('B', 'Active', 'five'),
    ];
    rows.push(row('C'), row('D'));
    await writeFile(path, `skip\nskip\n${HEADER}${rows.join('')}`);
    const feed = fixtureFeed('acme', { source: { path } });
    const result = await ingestFeed(feed, { state: {} });
    expect(result.listings.map((l) => l.MLSNumber)).toEqual(['C', 'D']);
    expect([...result.held].map((h) => [h.key, h.row, h.message])).toEqual([
      ['A', 6, 'Row 6 of feed.csv: Bedrooms "four" is not a number'],
      ['B', 7, 'Row 7 of feed.csv: Bedrooms "five" is not a number'],
    ]);
    // Read by place, in the same order (the plan reads keys this way).
    expect([result.held.keyAt?.(0), result.held.keyAt?.(1), result.held.at(-1)?.key]).toEqual([
      'A',
      'B',
      'B',
    ]);
  });

  it('a feed with no key twice: its listings in order, a removal and a held key between them left out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-order-'));
    const path = join(dir, 'feed.csv');
    // A, B withdrawn, C rejected, D, E: the listings' array is compacted where it stands.
    const rows = [row('A'), row('B', 'Withdrawn'), row('C', 'Active', 'three'), row('D'), row('E')];
    await writeFile(path, `skip\nskip\n${HEADER}${rows.join('')}`);
    const feed = fixtureFeed('acme', { source: { path } });
    const result = await ingestFeed(feed, { state: {} });
    expect(result.listings.map((l) => l.MLSNumber)).toEqual(['A', 'D', 'E']);
    expect(result.stats.valid).toBe(3);
    expect(result.removals).toEqual(['B']);
    expect([...result.held].map((h) => h.key)).toEqual(['C']);
    expect(result.duplicates).toEqual([]);
  });
});
