import { describe, expect, it } from 'vitest';
import { PATHS } from '../../src/api/schemas.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { listing } from '../../src/testing/listing.ts';
import { BOT, call, post, sandboxFor } from './helpers.ts';

const create = (sandbox: Sandbox, n: number) =>
  post(sandbox, PATHS.create, { SerialNumber: BOT, ...listing(n) });
const list = (sandbox: Sandbox) => post(sandbox, PATHS.list, { SerialNumber: BOT });

describe('fault injection', () => {
  it('answers HTTP 500 with an envelope of Code 500, without running the operation', async () => {
    const sandbox = await sandboxFor({ faults: { error500Rate: 1 } });
    const answer = await create(sandbox, 1);
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ Success: false, Code: 500, Version: '1.0-sandbox' });
    expect(sandbox.listings(BOT)).toEqual([]);
    expect(sandbox.stats().faults).toMatchObject({ error500: 1, rate429: 0 });
  });

  it('answers HTTP 429 with Retry-After', async () => {
    const sandbox = await sandboxFor({ faults: { rate429Rate: 1, retryAfterSeconds: 3 } });
    const answer = await list(sandbox);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.json).toMatchObject({ Success: false, Code: 429 });
    expect(sandbox.stats().faults.rate429).toBe(1);
  });

  it('hangs: never answers, then drops the connection after hangMs', async () => {
    const sandbox = await sandboxFor({ faults: { hangRate: 1, hangMs: 300 } });
    const started = Date.now();
    const pending = list(sandbox);
    await expect.poll(() => sandbox.stats().inFlight).toBe(1);
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    await expect.poll(() => sandbox.stats().inFlight).toBe(0);
    expect(sandbox.stats().faults.hang).toBe(1);
  });

  it('drops hung requests at close, without waiting for hangMs', async () => {
    const sandbox = await sandboxFor({ faults: { hangRate: 1 } });
    const pending = list(sandbox);
    await expect.poll(() => sandbox.stats().inFlight).toBe(1);
    const started = Date.now();
    await sandbox.close();
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers HTTP 200 with truncated JSON after carrying out the operation', async () => {
    const sandbox = await sandboxFor({ faults: { malformedJsonRate: 1 } });
    sandbox.seed(BOT, [listing(1)]);
    const answer = await post(sandbox, PATHS.update, {
      SerialNumber: BOT,
      Key: 'MLS-0001',
      KeyType: 'MLSNumber',
      Bedrooms: 5,
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toBeUndefined();
    expect(answer.text.startsWith('{"Data":1,')).toBe(true);
    expect(sandbox.listings(BOT)[0]?.Bedrooms).toBe(5);
    expect(sandbox.stats().faults.malformedJson).toBe(1);
  });

  it('ambiguous create: stores the listing, then answers HTTP 502', async () => {
    const sandbox = await sandboxFor({ faults: { ambiguousCreateRate: 1 } });
    const answer = await create(sandbox, 1);
    expect(answer.status).toBe(502);
    expect(sandbox.listings(BOT).map((r) => r.MLSNumber)).toEqual(['MLS-0001']);
    const listed = await list(sandbox);
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ Data: { VirtualCount: 1 } });
    expect(sandbox.stats().faults).toMatchObject({ ambiguousCreate: 1, error500: 0 });
  });

  it('applies faults only to faultOperations (listing operations by default)', async () => {
    const sandbox = await sandboxFor({ faults: { error500Rate: 1 } });
    expect(await call(sandbox, 'session', { serialNumber: BOT })).toMatchObject({ Success: true });
    expect((await list(sandbox)).status).toBe(500);
    sandbox.configure({ faultOperations: ['session'] });
    expect((await list(sandbox)).status).toBe(200);
    expect((await post(sandbox, PATHS.session, { serialNumber: BOT })).status).toBe(500);
  });

  it('truncates the final object of a stream when ask is faulted with malformed JSON', async () => {
    const sandbox = await sandboxFor({ faultOperations: ['ask'], faults: { malformedJsonRate: 1 } });
    const { SessionID } = (await call(sandbox, 'session', { serialNumber: BOT })).Data as {
      SessionID: number;
    };
    const answer = await post(sandbox, PATHS.ask, { sessionID: SessionID, content: 'hi', stream: true });
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    const last = answer.text.trimEnd().split('\n').at(-1) ?? '';
    expect(last.startsWith('data: {"QuestionID"')).toBe(true);
    expect(() => JSON.parse(last.slice(6))).toThrow();
    expect(answer.text).not.toContain('[DONE]');
  });

  it('draws faults from the seeded PRNG: same seed, same faults', async () => {
    const statuses = async (sandbox: Sandbox) => {
      const seen: number[] = [];
      for (let i = 0; i < 30; i++) seen.push((await list(sandbox)).status);
      return seen;
    };
    const options = { seed: 7, faults: { error500Rate: 0.3, rate429Rate: 0.2, retryAfterSeconds: 0 } };
    const a = await statuses(await sandboxFor(options));
    const b = await sandboxFor(options);
    expect(await statuses(b)).toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 429, 500]));
    b.configure({ seed: 7 });
    expect(await statuses(b)).toEqual(a);
    const other = await statuses(await sandboxFor({ ...options, seed: 8 }));
    expect(other).not.toEqual(a);
  });
});
