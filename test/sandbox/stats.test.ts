import { describe, expect, it } from 'vitest';
import { PATHS } from '../../src/api/schemas.ts';
import type { SandboxStats, StoredListing } from '../../src/sandbox/index.ts';
import { listing } from '../../src/testing/listing.ts';
import { BOT, call, post, sandboxFor } from './helpers.ts';

describe('stats', () => {
  it('tracks peak in-flight with concurrent requests held by latency', async () => {
    const sandbox = await sandboxFor({ latencyMs: 150 });
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(sandbox, PATHS.list, { SerialNumber: BOT })),
    );
    const elapsed = Date.now() - started;
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(8 * 150);
    const stats = sandbox.stats();
    expect(stats.peakInFlight).toBe(8);
    expect(stats.inFlight).toBe(0);
    expect(stats.requests.list).toBe(8);
    expect(stats.totalRequests).toBe(8);
    // Eight requests each held 150 ms: 1.2 s of slot time, however they overlapped.
    expect(stats.busyMs).toBeGreaterThanOrEqual(8 * 145);
    expect(stats.busyMs).toBeLessThan(8 * elapsed + 8);
  });

  it('counts requests per operation, and resetStats zeroes them', async () => {
    const sandbox = await sandboxFor();
    await call(sandbox, 'session', { serialNumber: BOT });
    await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1) });
    await call(sandbox, 'create', { SerialNumber: BOT, Bedrooms: 'x' });
    await post(sandbox, '/nowhere', {});
    expect(sandbox.stats()).toMatchObject({
      requests: { session: 1, create: 2, list: 0, update: 0, delete: 0, edit: 0, ask: 0 },
      unknownRequests: 1,
      totalRequests: 4,
      peakInFlight: 1,
    });
    sandbox.resetStats();
    expect(sandbox.stats()).toMatchObject({
      requests: { create: 0 },
      totalRequests: 0,
      peakInFlight: 0,
      busyMs: 0,
    });
  });

  it('seed bypasses stats and faults', async () => {
    const sandbox = await sandboxFor({ faults: { error500Rate: 1 } });
    expect(sandbox.seed(BOT, [listing(1), listing(2)])).toEqual(['1', '2']);
    expect(sandbox.stats().totalRequests).toBe(0);
    expect(sandbox.listings(BOT)).toHaveLength(2);
  });

  it('applies latency changed at run time', async () => {
    const sandbox = await sandboxFor();
    sandbox.configure({ latencyMs: 120 });
    const started = Date.now();
    await call(sandbox, 'list', { SerialNumber: BOT });
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });
});

describe('inspection over HTTP', () => {
  it('serves stats and resets them, uncounted', async () => {
    const sandbox = await sandboxFor();
    await call(sandbox, 'list', { SerialNumber: BOT });
    const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as SandboxStats;
    expect(stats).toEqual(sandbox.stats());
    expect(stats.requests.list).toBe(1);
    const reset = await post(sandbox, '/__sandbox/stats/reset', '');
    expect(reset.json).toMatchObject({ totalRequests: 0 });
    expect(sandbox.stats().totalRequests).toBe(0);
  });

  it('configures the sandbox, never echoing keys, and refuses bad settings', async () => {
    const sandbox = await sandboxFor();
    const answer = await post(sandbox, '/__sandbox/configure', {
      latencyMs: 5,
      secretKey: 'sk-shh',
      faults: { rate429Rate: 1 },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      latencyMs: 5,
      secretKey: '[set]',
      faults: { rate429Rate: 1, hangRate: 0 },
    });
    expect(answer.text).not.toContain('sk-shh');
    expect((await post(sandbox, PATHS.list, { SerialNumber: BOT })).status).toBe(429);
    const bad = await post(sandbox, '/__sandbox/configure', { latencyMs: 'slow' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'invalid sandbox settings: latencyMs: expected number, got string' });
  });

  it('bypasses auth, faults and latency', async () => {
    const sandbox = await sandboxFor({
      secretKey: 'sk',
      latencyMs: 2000,
      faults: { error500Rate: 1, hangRate: 1 },
    });
    sandbox.configure({ faultOperations: ['create', 'update', 'list', 'delete', 'edit', 'session', 'ask'] });
    const started = Date.now();
    const stats = await fetch(`${sandbox.url}/__sandbox/stats`);
    const listings = await fetch(`${sandbox.url}/__sandbox/listings?serialNumber=${BOT}`);
    expect([stats.status, listings.status]).toEqual([200, 200]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(sandbox.stats().totalRequests).toBe(0);
  });

  it('seeds and reads listings and settings', async () => {
    const sandbox = await sandboxFor();
    const seeded = await post(sandbox, '/__sandbox/seed', {
      serialNumber: BOT,
      listings: [listing(1), listing(1)],
    });
    expect(seeded.json).toEqual({ ids: ['1', '2'] });
    const invalid = await post(sandbox, '/__sandbox/seed', {
      serialNumber: BOT,
      listings: [{ MLSNumber: 'x' }],
    });
    expect(invalid.status).toBe(400);
    expect((invalid.json as { error: string }).error).toContain('listings[0].SaleType: required');

    const listings = (await (
      await fetch(`${sandbox.url}/__sandbox/listings?serialNumber=${BOT}`)
    ).json()) as StoredListing[];
    expect(listings).toEqual([
      { ID: 1, SerialNumber: BOT, ...listing(1) },
      { ID: 2, SerialNumber: BOT, ...listing(1) },
    ]);
    await call(sandbox, 'edit', { serialNumber: BOT, Name: 'Acme' });
    const settings = await fetch(`${sandbox.url}/__sandbox/settings?serialNumber=${BOT}`);
    expect(await settings.json()).toEqual({ Name: 'Acme' });
    const none = await fetch(`${sandbox.url}/__sandbox/settings?serialNumber=bot-9`);
    expect(await none.json()).toBeNull();
    const missing = await fetch(`${sandbox.url}/__sandbox/listings`);
    expect(missing.status).toBe(400);
    const unknown = await fetch(`${sandbox.url}/__sandbox/nothing`);
    expect(unknown.status).toBe(404);
  });
});
