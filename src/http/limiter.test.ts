import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLocalLimiter } from './limiter.ts';

describe('createLocalLimiter', () => {
  it('never runs more than `concurrency` at once, whatever the mix of calls', async () => {
    const limiter = createLocalLimiter({ concurrency: 3 });
    let inFlight = 0;
    let peak = 0;
    const task = async (ms: number) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await sleep(ms);
      inFlight--;
      return ms;
    };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => limiter.run(() => task(i % 2 ? 5 : 10))),
    );
    expect(peak).toBe(3);
    expect(results).toHaveLength(20);
  });

  it('spaces starts to the requests-per-second ceiling', async () => {
    const limiter = createLocalLimiter({ concurrency: 10, requestsPerSecond: 50 });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, () => limiter.run(async () => starts.push(performance.now()))),
    );
    const gaps = starts.slice(1).map((t, i) => t - (starts[i] ?? t));
    // 50/s = one start per 20 ms; timers may fire a little late, never early.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(18);
  });

  it('holds every new start back while paused', async () => {
    const limiter = createLocalLimiter({ concurrency: 2 });
    const before = performance.now();
    limiter.pause(100);
    const started = await limiter.run(async () => performance.now());
    expect(started - before).toBeGreaterThanOrEqual(95);
  });

  it('does not start a task whose signal is already aborted', async () => {
    const limiter = createLocalLimiter({ concurrency: 1 });
    let ran = false;
    await expect(limiter.run(async () => (ran = true), AbortSignal.abort())).rejects.toThrow();
    expect(ran).toBe(false);
  });
});
