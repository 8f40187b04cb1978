import { describe, expect, it } from 'vitest';
import { control, get, providerFor } from './helpers.ts';

describe('control endpoints', () => {
  it('reads state, request log and records, bumps timestamps into ties, adds listings and advances the clock', async () => {
    const grid = await providerFor({ provider: 'mlsgrid', listings: 10, limits: { second: null } });
    const keys = (await get(`${grid.url}/__reso/keys?from=2&count=3`)).json as string[];
    expect(keys).toHaveLength(3);
    const at = '2030-01-01T00:00:00.000Z';
    expect((await control(grid, '/listings/bump', { keys, at })).status).toBe(200);
    const bumped = (await get(`${grid.url}/__reso/listings/${keys[0]}`)).json;
    expect(bumped.ModificationTimestamp).toBe(at);
    expect(Array.isArray(bumped.Media)).toBe(true);
    const added = (await control(grid, '/listings/add', { count: 2, at })).json.keys as string[];
    expect(added).toHaveLength(2);
    const filter = encodeURIComponent(`OriginatingSystemName eq 'actris' and ModificationTimestamp ge ${at}`);
    const page = await get(`${grid.apiUrl}/Property?$filter=${filter}`, {
      Authorization: 'Bearer sandbox-token',
    });
    expect(page.json.value.map((r: { ListingKey: string }) => r.ListingKey)).toEqual([...keys, ...added]);
    const before = Date.parse((await get(`${grid.url}/__reso/state`)).json.now);
    const moved = (await control(grid, '/clock/advance', { ms: 3_600_000 })).json.now;
    expect(Date.parse(moved) - before).toBeGreaterThanOrEqual(3_600_000);
    const log = (await get(`${grid.url}/__reso/requests`)).json;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ method: 'GET', status: 200 });
    const state = (await get(`${grid.url}/__reso/state`)).json;
    expect(state).toMatchObject({
      provider: 'mlsgrid',
      listings: 12,
      counters: { requests: 1, admitted: 1 },
    });
    // Keys never appear whole in control output.
    expect(JSON.stringify(state)).not.toContain('sandbox-token');
  });

  it('a reset with an empty body resets all four parts, as documented', async () => {
    const grid = await providerFor({ provider: 'mlsgrid', listings: 10, limits: { second: null } });
    await get(`${grid.apiUrl}/Property`, { Authorization: 'Bearer sandbox-token' });
    expect((await get(`${grid.url}/__reso/requests`)).json).toHaveLength(1);
    expect((await control(grid, '/reset', {})).status).toBe(200);
    expect((await get(`${grid.url}/__reso/requests`)).json).toHaveLength(0);
    expect((await get(`${grid.url}/__reso/state`)).json).toMatchObject({ counters: { requests: 0 } });
  });

  it('refuses bad bodies and unknown keys, naming the problem', async () => {
    const grid = await providerFor({ provider: 'mlsgrid', listings: 10 });
    expect((await control(grid, '/listings/delete', { keys: [] })).status).toBe(400);
    const unknown = await control(grid, '/listings/delete', { keys: ['ACT999'] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatch(/ACT999/);
    const limits = await control(grid, '/configure', { limits: { minute: 5 } });
    expect(limits.json.error).toMatch(/mlsgrid has no such limit/);
  });
});
