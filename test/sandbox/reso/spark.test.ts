import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../src/sandbox/reso/index.ts';
import { control, get, providerFor, readAll } from './helpers.ts';

const AUTH = { Authorization: 'Bearer sandbox-token' };

describe('Spark: RESO replication endpoint', () => {
  it('answers failures in the D envelope with Spark codes', async () => {
    const spark = await providerFor({ provider: 'spark', listings: 30 });
    expect(spark.apiUrl).toMatch(/\/Reso\/OData$/);
    const anonymous = await get(`${spark.apiUrl}/Property`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ D: { Success: false, Code: 1000, Message: expect.any(String) } });
    const top = await get(`${spark.apiUrl}/Property?$top=1001`, AUTH);
    expect(top.status).toBe(400);
    expect(top.json.D.Code).toBe(1053);
    const filter = await get(`${spark.apiUrl}/Property?$filter=${encodeURIComponent('ListPrice gt')}`, AUTH);
    expect(filter.json.D.Code).toBe(1040);
    expect((await get(`${spark.apiUrl}/Property?$skip=10`, AUTH)).status).toBe(400);
  });

  it('pages in ListingKey order with $skiptoken, each record once', async () => {
    const spark = await providerFor({ provider: 'spark', listings: 2300 });
    const { records, pages } = await readAll(`${spark.apiUrl}/Property?$top=1000`, AUTH);
    expect(pages).toHaveLength(3);
    expect(pages[1]).toContain(`$skiptoken=${records[999]!.ListingKey}`);
    const keys = records.map((r) => String(r.ListingKey));
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(2300);
  });

  it('serves updates by ModificationTimestamp and drops deleted records', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const spark = await providerFor({ provider: 'spark', listings: 100, clock });
    const [changed, gone] = spark.keys(10, 2) as [string, string];
    const since = new Date(clock.now() - 20 * 60_000).toISOString();
    await control(spark, '/listings/modify', { keys: [changed], fields: { ListPrice: 999 } });
    await control(spark, '/listings/delete', { keys: [gone] });
    const filter = encodeURIComponent(`ModificationTimestamp gt ${since}`);
    const answer = await get(`${spark.apiUrl}/Property?$filter=${filter}`, AUTH);
    expect(answer.json.value.map((r: { ListingKey: string }) => r.ListingKey)).toEqual([changed]);
    const all = await readAll(`${spark.apiUrl}/Property?$select=ListingKey&$top=1000`, AUTH);
    expect(all.records).toHaveLength(99);
  });

  it('answers 429 with code 1550 over the rate limit', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const spark = await providerFor({
      provider: 'spark',
      listings: 10,
      clock,
      limits: { fiveMinutes: 2 },
      retryAfter: true,
    });
    await get(`${spark.apiUrl}/Property`, AUTH);
    clock.advance(1000);
    await get(`${spark.apiUrl}/Property`, AUTH);
    const over = await get(`${spark.apiUrl}/Property`, AUTH);
    expect(over.status).toBe(429);
    expect(over.json.D.Code).toBe(1550);
    expect(over.headers.get('retry-after')).toBe('299');
  });
});
