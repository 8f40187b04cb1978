import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../../normalize/index.ts';
import { resoOptionsSchema } from '../../source-schema.ts';
import {
  advanced,
  type ResoCheckpoint,
  readAlready,
  startReplication,
  sweepDue,
  watermarkAfter,
} from './checkpoint.ts';
import { FirstSeen, KeyHashSet } from './key-set.ts';
import { ceilingsOf, parseReset } from './rate-headers.ts';
import { keysUrl, mediaUrl, queryHeaders, replicationUrl, resourceUrl, sweepUrl } from './reso-query.ts';
import { resolveResoOptions } from './resolve-options.ts';

const NOW = new Date('2024-05-02T00:00:00Z');
const resolved = (options: Record<string, unknown>) => resolveResoOptions(resoOptionsSchema.parse(options));
const at = (iso: string) => Date.parse(iso);

describe('startReplication: which replication a run reads', () => {
  const options = resolved({ mode: 'incremental', overlapMinutes: 10 });
  it('starts full the first time, incremental from the watermark minus the overlap after', () => {
    expect(startReplication(options, {}, NOW, false, parseTimestamp).checkpoint).toMatchObject({
      kind: 'full',
      runs: 1,
    });
    const state = { resoWatermark: '2024-05-01T12:00:00Z', lastFullRunAt: '2024-05-01T13:00:00Z' };
    expect(startReplication(options, state, NOW, false, parseTimestamp)).toEqual({
      resumed: false,
      checkpoint: {
        kind: 'incremental',
        since: '2024-05-01T11:50:00.000Z',
        startedAt: NOW.toISOString(),
        pages: 0,
        records: 0,
        runs: 1,
      },
    });
  });

  it('goes on with a stored replication, unless forced full or the config asks for another kind', () => {
    const stored: ResoCheckpoint = {
      kind: 'incremental',
      startedAt: 'x',
      since: 'y',
      pages: 2,
      records: 9,
      runs: 1,
    };
    expect(startReplication(options, { resoCheckpoint: stored }, NOW, false, parseTimestamp)).toEqual({
      resumed: true,
      checkpoint: { ...stored, runs: 2 },
    });
    expect(
      startReplication(options, { resoCheckpoint: stored }, NOW, true, parseTimestamp).checkpoint.kind,
    ).toBe('full');
    const full = resolved({ mode: 'full' });
    expect(startReplication(full, { resoCheckpoint: stored }, NOW, false, parseTimestamp).resumed).toBe(
      false,
    );
    // Something this version cannot read is not resumed.
    expect(
      startReplication(options, { resoCheckpoint: { kind: 'odd' } }, NOW, false, parseTimestamp).resumed,
    ).toBe(false);
  });
});

describe('advanced: the place after a page', () => {
  const start: ResoCheckpoint = { kind: 'full', startedAt: NOW.toISOString(), pages: 0, records: 0, runs: 1 };
  const r = (key: string, iso: string) => ({ key, modified: at(iso) });

  it('by timestamp, keeps every key read at the last instant, across pages', () => {
    const one = advanced(
      start,
      [r('A', '2024-01-01T00:00:00Z'), r('C', '2024-01-02T00:00:00Z')],
      'timestamp',
      'next1',
      NOW,
    );
    expect(one.position).toEqual({ timestamp: '2024-01-02T00:00:00.000Z', keys: ['C'] });
    const two = advanced(one, [r('B', '2024-01-02T00:00:00Z')], 'timestamp', undefined, NOW);
    expect(two).toMatchObject({
      position: { timestamp: '2024-01-02T00:00:00.000Z', keys: ['B', 'C'] },
      pages: 2,
      records: 3,
    });
    expect(two.nextLink).toBeUndefined();
    expect(readAlready(two.position, r('B', '2024-01-02T00:00:00Z'))).toBe(true);
    expect(readAlready(two.position, r('D', '2024-01-02T00:00:00Z'))).toBe(false);
    // Modified since: a later timestamp, read again.
    expect(readAlready(two.position, r('B', '2024-01-03T00:00:00Z'))).toBe(false);
  });

  it('by key, is the last ListingKey', () => {
    expect(
      advanced(start, [r('A', '2024-01-09T00:00:00Z'), r('B', '2024-01-01T00:00:00Z')], 'key', 'l', NOW)
        .position,
    ).toEqual({ key: 'B' });
  });

  it('moves the watermark to the newest record read, never past the replication start nor back', () => {
    const done = { ...start, newest: '2024-05-03T00:00:00.000Z' };
    expect(watermarkAfter(done, undefined)).toBe(NOW.toISOString());
    expect(watermarkAfter({ ...start, newest: '2024-04-01T00:00:00Z' }, at('2024-04-02T00:00:00Z'))).toBe(
      '2024-04-02T00:00:00.000Z',
    );
    expect(watermarkAfter(start, undefined)).toBeUndefined();
  });

  it('goes no later than the first timestamp of a record read twice (movedFloor), even back', () => {
    const moved = { ...start, newest: '2024-04-05T00:00:00Z', movedFloor: '2024-04-01T12:00:00.000Z' };
    expect(watermarkAfter(moved, undefined)).toBe('2024-04-01T12:00:00.000Z');
    expect(watermarkAfter(moved, at('2024-04-02T00:00:00Z'))).toBe('2024-04-01T12:00:00.000Z');
    expect(watermarkAfter({ ...moved, movedFloor: '2024-04-09T00:00:00Z' }, undefined)).toBe(
      '2024-04-05T00:00:00.000Z',
    );
  });
});

describe('sweepDue', () => {
  const options = resolved({ provider: 'spark' });
  const full: ResoCheckpoint = { kind: 'full', startedAt: NOW.toISOString(), pages: 1, records: 1, runs: 1 };
  it('after a full read over several runs, when owed, and by period; never after a whole full read', () => {
    expect(sweepDue(options, {}, full, NOW, parseTimestamp)).toBe(false);
    expect(sweepDue(options, {}, { ...full, runs: 3 }, NOW, parseTimestamp)).toBe(true);
    expect(
      sweepDue(
        options,
        { resoSweepDue: true, resoSweepAt: NOW.toISOString() },
        undefined,
        NOW,
        parseTimestamp,
      ),
    ).toBe(true);
    expect(sweepDue(options, { resoSweepAt: '2024-05-01T01:00:00Z' }, undefined, NOW, parseTimestamp)).toBe(
      false,
    );
    expect(sweepDue(options, { resoSweepAt: '2024-04-30T23:00:00Z' }, undefined, NOW, parseTimestamp)).toBe(
      true,
    );
    expect(
      sweepDue(resolved({}), { resoSweepAt: '2020-01-01T00:00:00Z' }, undefined, NOW, parseTimestamp),
    ).toBe(false);
  });
});

describe('queries per provider', () => {
  const cp: ResoCheckpoint = { kind: 'full', startedAt: 'x', pages: 0, records: 0, runs: 1 };
  const decoded = (url: string) => decodeURIComponent(url);
  it('MLS Grid: its MLS, MlgCanView on the first import, no $orderby, the largest $top for $expand', () => {
    const o = resolved({
      provider: 'mlsgrid',
      originatingSystem: "o'hare",
      filter: "City eq 'X'",
      select: ['ListPrice'],
    });
    expect(decoded(replicationUrl('https://api.mlsgrid.com/v2/', o, cp))).toBe(
      "https://api.mlsgrid.com/v2/Property?$filter=OriginatingSystemName eq 'o''hare' and MlgCanView eq true and (City eq 'X')&$select=ListPrice,ModificationTimestamp,ListingKey,MlgCanView&$top=1000&$expand=Media",
    );
    expect(decoded(sweepUrl('https://x/v2', o, ['ListingKey', 'ListingId']))).toBe(
      "https://x/v2/Property?$filter=OriginatingSystemName eq 'o''hare' and MlgCanView eq true and (City eq 'X')&$select=ListingKey,ModificationTimestamp,ListingId&$top=5000",
    );
  });
  it('Trestle: replication=true for the whole feed, by ListingKey; Bridge: pages by Prefer, no $top, Media inline', () => {
    expect(
      decoded(
        replicationUrl('https://t/odata', resolved({ provider: 'trestle' }), {
          ...cp,
          position: { key: 'K9' },
        }),
      ),
    ).toBe(
      "https://t/odata/Property?$filter=ListingKey gt 'K9'&$top=1000&$orderby=ListingKey asc&$expand=Media&replication=true",
    );
    expect(
      decoded(
        replicationUrl('https://b/odata', resolved({ provider: 'bridge' }), {
          ...cp,
          kind: 'incremental',
          since: 'S',
        }),
      ),
    ).toBe(
      'https://b/odata/Property?$filter=ModificationTimestamp gt S&$orderby=ModificationTimestamp asc,ListingKey asc',
    );
    expect(queryHeaders(resolved({ provider: 'bridge' }))).toEqual({ prefer: 'odata.maxpagesize=200' });
    expect(queryHeaders(resolved({ provider: 'mlsgrid', originatingSystem: 'a' }))).toEqual({});
  });
  it("keeps an endpoint's own query (Bridge's ?access_token=) as a query, before the query's parameters", () => {
    const o = resolved({ provider: 'bridge' });
    const endpoint = 'https://b/api/v2/OData/test/?access_token=T0K';
    expect(decoded(replicationUrl(endpoint, o, { ...cp, kind: 'incremental', since: 'S' }))).toBe(
      'https://b/api/v2/OData/test/Property?access_token=T0K&$filter=ModificationTimestamp gt S&$orderby=ModificationTimestamp asc,ListingKey asc',
    );
    expect(
      sweepUrl(endpoint, o, ['ListingId']).startsWith(
        'https://b/api/v2/OData/test/Property?access_token=T0K&',
      ),
    ).toBe(true);
    expect(
      keysUrl(endpoint, o, ['ListingId'], ['A']).startsWith(
        'https://b/api/v2/OData/test/Property?access_token=T0K&',
      ),
    ).toBe(true);
    expect(mediaUrl(endpoint, ['K']).startsWith('https://b/api/v2/OData/test/Media?access_token=T0K&')).toBe(
      true,
    );
    expect(resourceUrl('https://x/v2/', 'Property', '')).toBe('https://x/v2/Property');
    expect(resourceUrl('https://x/v2?', 'Property', 'a=1')).toBe('https://x/v2/Property?a=1');
  });
});

describe('rate headers', () => {
  const now = at('2024-05-02T00:00:00Z');
  it('reads Bridge, Trestle and X-RateLimit announcements, with resets as providers write them', () => {
    expect(
      ceilingsOf(
        {
          'burst-ratelimit-remaining': '0',
          'burst-ratelimit-reset': '30',
          'application-ratelimit-remaining': '4000',
          'application-ratelimit-reset': '2024-05-02T01:00:00Z',
          'hour-quota-available': '12.0',
          'minute-quota-available': '3.0',
          'minute-quota-resettime': String(now + 20_000),
          'x-ratelimit-remaining': 'lots',
        },
        now,
      ),
    ).toEqual([
      { name: 'application', remaining: 4000, resetAt: at('2024-05-02T01:00:00Z') },
      { name: 'burst', remaining: 0, resetAt: now + 30_000 },
      { name: 'hour-quota', remaining: 12, resetAt: now + 3_600_000 },
      { name: 'minute-quota', remaining: 3, resetAt: now + 20_000 },
    ]);
    expect(parseReset('1714611600', now)).toBe(1_714_611_600_000);
    expect(parseReset('1714611600000', now)).toBe(1_714_611_600_000);
    expect(parseReset('soon', now)).toBeUndefined();
  });
});

describe('FirstSeen', () => {
  it('gives the first time a key was read, through growth, and notes a new key', () => {
    const seen = new FirstSeen();
    for (let i = 0; i < 5000; i++) expect(seen.firstOf(`L${i}`, i)).toBeUndefined();
    expect(seen.firstOf('L42', 9999)).toBe(42);
    expect(seen.firstOf(' L4999 ', 1)).toBe(4999);
    expect(seen.firstOf('L5000', 7)).toBeUndefined();
    expect(seen.firstOf('L5000', 8)).toBe(7);
  });
});

describe('KeyHashSet', () => {
  it('answers membership for trimmed keys without holding them', () => {
    const keys = new KeyHashSet();
    for (let i = 0; i < 5000; i++) keys.add(`L${i}`);
    keys.add(' X1 ');
    expect(keys.size).toBe(5001);
    expect(keys.has('L4999')).toBe(true);
    expect(keys.has('X1')).toBe(true);
    expect(keys.has('L5000')).toBe(false);
  });
});
