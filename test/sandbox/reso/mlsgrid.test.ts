import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../src/sandbox/reso/index.ts';
import { control, get, providerFor, q, readAll } from './helpers.ts';

const AUTH = { Authorization: 'Bearer sandbox-token' };
const SYSTEM = "OriginatingSystemName eq 'actris'";
const DAY = 86_400_000;

async function mlsgrid(options: Record<string, unknown> = {}) {
  // No per-second limit unless a test asks: paging tests send requests back to back.
  return providerFor({ provider: 'mlsgrid', listings: 2500, limits: { second: null }, ...options });
}

describe('MLS Grid: the published query rules', () => {
  it('refuses a query without exactly one OriginatingSystemName, with a non-searchable field, or with six ors', async () => {
    const grid = await mlsgrid();
    const refused = [
      '',
      `$filter=${q('MlgCanView eq true')}`,
      `$filter=${q(`${SYSTEM} or OriginatingSystemName eq 'mred'`)}`,
      `$filter=${q(`${SYSTEM} and City eq 'Austin'`)}`,
      `$filter=${q(`${SYSTEM} and (${Array.from({ length: 7 }, (_, n) => `ListingId eq 'ACT${n}'`).join(' or ')})`)}`,
    ];
    for (const query of refused) {
      const answer = await get(`${grid.apiUrl}/Property?${query}`, AUTH);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error.code).toBe(400);
      expect(typeof answer.json.error.message).toBe('string');
    }
    const inList = await get(
      `${grid.apiUrl}/Property?$filter=${q(`${SYSTEM} and StandardStatus in ('Active','Pending')`)}&$top=5`,
      AUTH,
    );
    expect(inList.status).toBe(200);
    expect(
      inList.json.value.every((r: { StandardStatus: string }) =>
        ['Active', 'Pending'].includes(r.StandardStatus),
      ),
    ).toBe(true);
  });

  it('caps $top at 5000, and at 1000 with $expand; the default page is 500', async () => {
    const grid = await mlsgrid();
    const url = `${grid.apiUrl}/Property?$filter=${q(SYSTEM)}`;
    expect((await get(`${url}&$top=5001`, AUTH)).status).toBe(400);
    expect((await get(`${url}&$top=1001&$expand=Media`, AUTH)).json.error.message).toMatch(/1000.*\$expand/);
    expect((await get(`${url}&$top=1000&$expand=Media`, AUTH)).json.value).toHaveLength(1000);
    expect((await get(`${url}&$top=5000`, AUTH)).json.value).toHaveLength(2500);
    expect((await get(url, AUTH)).json.value).toHaveLength(500);
  });

  it('wants gzip before anything else, then a bearer token', async () => {
    const grid = await mlsgrid();
    const url = `${grid.apiUrl}/Property?$filter=${q(SYSTEM)}`;
    const plain = await get(url, { 'Accept-Encoding': 'identity' });
    expect(plain.status).toBe(400);
    expect(plain.json.error.message).toBe('COMPRESSION REQUIRED');
    expect((await get(url)).status).toBe(401);
    expect((await get(url, { Authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('pages with @odata.nextLink and $skip in ModificationTimestamp order, ties crossing page boundaries', async () => {
    const grid = await mlsgrid();
    const { records, pages } = await readAll(
      `${grid.apiUrl}/Property?$filter=${q(`${SYSTEM} and MlgCanView eq true`)}&$top=1000`,
      AUTH,
    );
    expect(pages).toHaveLength(3);
    expect(pages[1]).toContain('$skip=1000');
    expect(new Set(records.map((r) => r.ListingKey)).size).toBe(2500);
    const times = records.map((r) => Date.parse(String(r.ModificationTimestamp)));
    expect(times.every((t, n) => n === 0 || t >= times[n - 1]!)).toBe(true);
    // The last record of page 1 and the first of page 2 share one timestamp.
    expect(records[999]!.ModificationTimestamp).toBe(records[1000]!.ModificationTimestamp);
  });

  it('answers another MLS with an empty feed', async () => {
    const grid = await mlsgrid();
    const answer = await get(`${grid.apiUrl}/Property?$filter=${q("OriginatingSystemName eq 'mred'")}`, AUTH);
    expect(answer.status).toBe(200);
    expect(answer.json.value).toEqual([]);
  });

  it('expands Media (not in Order) and honours $select', async () => {
    const grid = await mlsgrid();
    const answer = await get(
      `${grid.apiUrl}/Property?$filter=${q(SYSTEM)}&$top=50&$expand=Media&$select=ListingKey,PhotosChangeTimestamp`,
      AUTH,
    );
    const withMedia = answer.json.value.filter((r: { Media: unknown[] }) => r.Media.length > 0);
    expect(withMedia.length).toBeGreaterThan(40);
    expect(Object.keys(withMedia[0]).sort()).toEqual(['ListingKey', 'Media', 'PhotosChangeTimestamp']);
    expect(withMedia[0].Media[0]).toMatchObject({
      MediaKey: expect.any(String),
      MediaURL: expect.any(String),
      Order: expect.any(Number),
    });
  });
});

describe('MLS Grid: replication and deletion markers', () => {
  it('serves changes after a timestamp: modified, closed, and MlgCanView false for 7 days, then nothing', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const grid = await mlsgrid({ clock });
    const [modified, closed, deleted] = grid.keys(100, 3) as [string, string, string];
    const since = new Date(clock.now()).toISOString();
    clock.advance(1000);
    expect(
      (
        await control(grid, '/listings/modify', {
          keys: [modified],
          fields: { ListPrice: 123456 },
          photos: true,
        })
      ).status,
    ).toBe(200);
    expect((await control(grid, '/listings/close', { keys: [closed] })).status).toBe(200);
    expect((await control(grid, '/listings/delete', { keys: [deleted] })).status).toBe(200);
    const url = `${grid.apiUrl}/Property?$filter=${q(`${SYSTEM} and ModificationTimestamp gt ${since}`)}`;
    const changes = (await get(url, AUTH)).json.value as Record<string, unknown>[];
    const byKey = new Map(changes.map((r) => [r.ListingKey, r]));
    expect([...byKey.keys()].sort()).toEqual([modified, closed, deleted].sort());
    expect(byKey.get(modified)).toMatchObject({
      ListPrice: 123456,
      MlgCanView: true,
      PhotosChangeTimestamp: new Date(clock.now()).toISOString(),
    });
    expect(byKey.get(closed)).toMatchObject({ StandardStatus: 'Closed', MlgCanView: true });
    expect(byKey.get(deleted)).toMatchObject({ MlgCanView: false });
    // The initial-import filter leaves the marker out.
    const visible = (await get(`${url.replace('gt', 'ge')}`, AUTH)).json.value.length;
    const initial = (
      await get(
        `${grid.apiUrl}/Property?$filter=${q(`${SYSTEM} and MlgCanView eq true and ModificationTimestamp gt ${since}`)}`,
        AUTH,
      )
    ).json.value;
    expect(visible).toBe(3);
    expect(initial).toHaveLength(2);
    clock.advance(7 * DAY - 1);
    expect((await get(url, AUTH)).json.value).toHaveLength(3);
    clock.advance(1);
    expect((await get(url, AUTH)).json.value.map((r: { ListingKey: string }) => r.ListingKey)).not.toContain(
      deleted,
    );
    expect(grid.record(deleted)).toBeUndefined();
  });
});

describe('MLS Grid: limits and suspension', () => {
  it('answers the third request in one second with 429 and suspends the key until reset', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const grid = await providerFor({ provider: 'mlsgrid', listings: 20, clock });
    const url = `${grid.apiUrl}/Property?$filter=${q(SYSTEM)}&$top=1`;
    expect((await get(url, AUTH)).status).toBe(200);
    expect((await get(url, AUTH)).status).toBe(200);
    const over = await get(url, AUTH);
    expect(over.status).toBe(429);
    expect(over.json.error.message).toMatch(/suspended.*2 requests per second/);
    expect(over.headers.get('retry-after')).toBeNull();
    clock.advance(3_600_000);
    const later = await get(url, AUTH);
    expect(later.status).toBe(429);
    expect(later.json.error.message).toMatch(/suspended/);
    const state = (await get(`${grid.url}/__reso/state`)).json;
    expect(Object.values(state.suspended)).toHaveLength(1);
    expect(grid.emails().map((e) => e.kind)).toEqual(['suspension']);
    expect((await control(grid, '/reset', { suspension: true, counters: true })).status).toBe(200);
    expect((await get(url, AUTH)).status).toBe(200);
  });

  it('warns at 80% of the hour and suspends past it', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const grid = await providerFor({ provider: 'mlsgrid', listings: 20, clock, limits: { hour: 5 } });
    const url = `${grid.apiUrl}/Property?$filter=${q(SYSTEM)}&$top=1`;
    for (let n = 0; n < 5; n++) {
      expect((await get(url, AUTH)).status).toBe(200);
      clock.advance(1000);
    }
    expect(grid.emails().map((e) => e.kind)).toEqual(['warning']);
    expect((await get(url, AUTH)).status).toBe(429);
    expect(grid.emails().map((e) => e.kind)).toEqual(['warning', 'suspension']);
    expect(grid.snapshot().counters).toMatchObject({ admitted: 5 });
  });

  it('serves the request that crosses the bytes-per-hour limit, then suspends', async () => {
    const grid = await mlsgrid({ limits: { second: null, bytesPerHour: 2000 } });
    const url = `${grid.apiUrl}/Property?$filter=${q(SYSTEM)}&$top=100`;
    expect((await get(url, AUTH)).status).toBe(200);
    const next = await get(url, AUTH);
    expect(next.status).toBe(429);
    expect(next.json.error.message).toMatch(/bytes per hour/);
  });
});

describe('MLS Grid: a feed of tens of thousands', () => {
  it('serves 30 000 listings in pages of 5000, each once', async () => {
    const grid = await providerFor({ provider: 'mlsgrid', listings: 30_000, limits: { second: null } });
    const { records, pages } = await readAll(
      `${grid.apiUrl}/Property?$filter=${q(`${SYSTEM} and MlgCanView eq true`)}&$top=5000`,
      AUTH,
    );
    expect(pages).toHaveLength(6);
    expect(new Set(records.map((r) => r.ListingKey)).size).toBe(30_000);
    expect(grid.snapshot().counters.admitted).toBe(6);
  });
});
