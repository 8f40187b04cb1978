import { describe, expect, it } from 'vitest';
import { PATHS } from '../../src/api/schemas.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { BOT, post, sandboxFor } from './helpers.ts';

const list = (sandbox: Sandbox) => post(sandbox, PATHS.list, { SerialNumber: BOT });

describe('rate limit', () => {
  it('answers 429 with Retry-After beyond rateLimitPerSecond, before the latency', async () => {
    const sandbox = await sandboxFor({ rateLimitPerSecond: 3, latencyMs: 300 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => list(sandbox)));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(refused).toHaveLength(3);
    expect(refused.every((a) => a.headers.get('retry-after') === '1')).toBe(true);
    expect(refused[0]?.json).toMatchObject({ Success: false, Code: 429 });
    const stats = sandbox.stats();
    expect(stats.rateLimited).toBe(3);
    expect(stats.requests.list).toBe(6);
    expect(stats.faults.rate429).toBe(0);
  });

  it('leaves Retry-After out when told to', async () => {
    const sandbox = await sandboxFor({ rateLimitPerSecond: 1, rateLimitRetryAfter: false });
    const answers = await Promise.all([list(sandbox), list(sandbox)]);
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.headers.get('retry-after')).toBeNull();
  });

  it('is off by default and can be switched at run time', async () => {
    const sandbox = await sandboxFor();
    const free = await Promise.all(Array.from({ length: 5 }, () => list(sandbox)));
    expect(free.every((a) => a.status === 200)).toBe(true);
    sandbox.configure({ rateLimitPerSecond: 2 });
    const limited = await Promise.all(Array.from({ length: 4 }, () => list(sandbox)));
    expect(limited.filter((a) => a.status === 429)).toHaveLength(2);
  });
});
