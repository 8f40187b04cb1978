import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../src/sandbox/reso/index.ts';
import { get, providerFor, readAll } from './helpers.ts';

const AUTH = { Authorization: 'Bearer sandbox-token' };

describe('Bridge: access and rate limits', () => {
  it('takes the token as access_token or as a bearer header', async () => {
    const bridge = await providerFor({ provider: 'bridge', listings: 30 });
    expect(bridge.apiUrl).toMatch(/\/api\/v2\/OData\/actris_ref$/);
    expect((await get(`${bridge.apiUrl}/Property`)).status).toBe(401);
    expect((await get(`${bridge.apiUrl}/Property?access_token=sandbox-token`)).status).toBe(200);
    expect((await get(`${bridge.apiUrl}/Property`, AUTH)).status).toBe(200);
    expect((await get(`${bridge.url}/api/v2/OData/other/Property`, AUTH)).status).toBe(404);
  });

  it('reports Application- and Burst-RateLimit headers, the burst 1/15 of the hour, and 429 past it', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const bridge = await providerFor({ provider: 'bridge', listings: 30, clock });
    const first = await get(`${bridge.apiUrl}/Property`, AUTH);
    expect(first.headers.get('application-ratelimit-limit')).toBe('5000');
    expect(first.headers.get('application-ratelimit-remaining')).toBe('4999');
    expect(first.headers.get('burst-ratelimit-limit')).toBe('334');
    expect(first.headers.get('burst-ratelimit-reset')).toBe(new Date(clock.now() + 60_000).toISOString());
    const limited = await providerFor({ provider: 'bridge', listings: 30, clock, limits: { burst: 2 } });
    await get(`${limited.apiUrl}/Property`, AUTH);
    await get(`${limited.apiUrl}/Property`, AUTH);
    const over = await get(`${limited.apiUrl}/Property`, AUTH);
    expect(over.status).toBe(429);
    expect(over.headers.get('burst-ratelimit-remaining')).toBe('0');
    clock.advance(60_000);
    expect((await get(`${limited.apiUrl}/Property`, AUTH)).status).toBe(200);
  });
});

describe('Bridge: paging', () => {
  it('pages by Prefer odata.maxpagesize (default 10, at most 200), $top being the whole result', async () => {
    const bridge = await providerFor({ provider: 'bridge', listings: 300 });
    expect((await get(`${bridge.apiUrl}/Property`, AUTH)).json.value).toHaveLength(10);
    const big = await get(`${bridge.apiUrl}/Property`, { ...AUTH, Prefer: 'odata.maxpagesize=200' });
    expect(big.json.value).toHaveLength(200);
    expect(big.headers.get('preference-applied')).toBe('odata.maxpagesize=200');
    expect(
      (await get(`${bridge.apiUrl}/Property`, { ...AUTH, Prefer: 'odata.maxpagesize=201' })).status,
    ).toBe(400);
    expect((await get(`${bridge.apiUrl}/Property?$top=201`, AUTH)).status).toBe(400);
    const { records, pages } = await readAll(`${bridge.apiUrl}/Property?$top=25`, AUTH);
    expect(records).toHaveLength(25);
    expect(pages).toHaveLength(3);
  });

  it('refuses $skip past its cap and points at the replication endpoint', async () => {
    const bridge = await providerFor({ provider: 'bridge', listings: 100, maxSkip: 50 });
    const answer = await get(`${bridge.apiUrl}/Property?$skip=60`, AUTH);
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/replication/);
  });

  it('replicates in pages of up to 2000 without $orderby, each record once, Media inline', async () => {
    const bridge = await providerFor({ provider: 'bridge', listings: 4500 });
    expect((await get(`${bridge.apiUrl}/Property/replication?$top=2001`, AUTH)).status).toBe(400);
    const ordered = await get(`${bridge.apiUrl}/Property/replication?$orderby=ListingKey`, AUTH);
    expect(ordered.json.error.message).toBe('$orderby is not supported on this endpoint');
    const { records, pages } = await readAll(`${bridge.apiUrl}/Property/replication?$top=2000`, AUTH);
    expect(pages).toHaveLength(3);
    expect(pages[1]).toContain('$next=');
    expect(new Set(records.map((r) => r.ListingKey)).size).toBe(4500);
    expect(records.some((r) => Array.isArray(r.Media) && r.Media.length > 0)).toBe(true);
  });
});
