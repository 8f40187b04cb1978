import { describe, expect, it } from 'vitest';
import { createMemoryGate, mayStart, pageMemoCost, runCost } from './memory-gate.ts';

const MB = 2 ** 20;
const heap = (used: number) => ({ used_heap_size: used * MB, heap_size_limit: 160 * MB });

describe('the memory gate (worker.maxHeapShare)', () => {
  it.each([
    [0, 150, true], // a worker running nothing always starts one
    [3, 90, true],
    [3, 96, true], // at the share exactly
    [3, 97, false],
    [1, 150, false],
  ])('%i running, %i MB of 160 in use, share 0.6: may start %s', (running, used, expected) => {
    expect(mayStart(running, heap(used), 0.6)).toBe(expected);
  });

  it('holds a run while the heap is above its share, and lets it go when another run ends', async () => {
    let used = 10;
    const gate = createMemoryGate(
      () => 0.5,
      () => heap(used),
      60_000,
    );
    const first = await gate.enter(0);
    used = 100;
    let started = false;
    const second = gate.enter(0).then((leave) => {
      started = true;
      return leave;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toBe(false);
    expect(gate.running).toBe(1);
    // The first run ends: nothing runs, so the second starts whatever the heap.
    first();
    first();
    (await second)();
    expect(started).toBe(true);
    expect(gate.running).toBe(0);
  });

  it('a waiting run gives up when its job is aborted', async () => {
    const gate = createMemoryGate(
      () => 0.5,
      () => heap(100),
      60_000,
    );
    const leave = await gate.enter(0);
    const controller = new AbortController();
    const waiting = gate.enter(0, controller.signal);
    controller.abort(new Error('worker shutting down'));
    await expect(waiting).rejects.toThrow('worker shutting down');
    leave();
  });

  it('sizes a run by its feed: many due at once do not all pass an empty heap', async () => {
    // 2 MB in use, share 0.6 of 160 MB = 96 MB: room for 94 MB of expected runs.
    const gate = createMemoryGate(
      () => 0.6,
      () => heap(2),
      60_000,
    );
    // ~44 MB each: 30 MB of columns, 4.8 MB of record memo, 4.4 MB of page memo, 6 MB of pages read ahead.
    const big = runCost(100_000);
    expect(big).toBeGreaterThan(43 * MB);
    expect(big).toBeLessThan(45 * MB);
    const started: number[] = [];
    const leaves = [0, 1, 2, 3].map((n) =>
      gate.enter(big).then((leave) => {
        started.push(n);
        return leave;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Two fit beside the 2 MB in use (2 + 87 ≤ 96); the third waits, although the heap is low.
    expect(started).toEqual([0, 1]);
    expect(gate.running).toBe(2);
    (await leaves[0]!)();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual([0, 1, 2]);
    (await leaves[1]!)();
    (await leaves[2]!)();
    (await leaves[3]!)();
    expect(gate.running).toBe(0);
  });

  it('counts the page memo the decode thread holds off the heap, by the feed key, while one is kept', () => {
    // 1M listings keyed by MLS number: ~37 MB of page memo measured (in a run that reuses its reading).
    const byMls = runCost(1_000_000) - runCost(1_000_000 - 1);
    expect(byMls).toBe(300 + 48 + 44);
    expect(pageMemoCost(1_000_000, 'MLSNumber')).toBe(44_000_000);
    // URLs as keys make longer entries: 500k of them, 80 MB, are still kept.
    expect(runCost(500_000, 'Url') - runCost(500_000, 'MLSNumber')).toBe(116 * 500_000);
    // A chatbot over the larger bound (96 MB) keeps no memo: nothing counted for one.
    expect(pageMemoCost(1_000_000, 'Url')).toBe(0);
    expect(pageMemoCost(3_000_000, 'MLSNumber')).toBe(0);
    expect(runCost(1_000_000, 'Url')).toBe(runCost(1_000_000, 'MLSNumber') - 44_000_000);
  });

  it('counts a feed never run as small', () => {
    expect(runCost(undefined)).toBe(300 * 1024);
    expect(mayStart(5, heap(20), 0.6, 70 * MB, runCost(undefined))).toBe(true);
    expect(mayStart(5, heap(20), 0.6, 76 * MB, runCost(undefined))).toBe(false);
  });

  it('never lets later runs overtake a waiting one: a big feed starts once the runs before it end', async () => {
    const gate = createMemoryGate(
      () => 0.6,
      () => heap(20),
      60_000,
    );
    const small = await gate.enter(runCost(50));
    let bigStarted = false;
    const big = gate.enter(runCost(300_000)).then((leave) => {
      bigStarted = true;
      return leave;
    });
    // Small runs keep arriving: each waits behind the big one instead of passing it.
    let laterStarted = false;
    const later = gate.enter(runCost(50)).then((leave) => {
      laterStarted = true;
      return leave;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([bigStarted, laterStarted]).toEqual([false, false]);
    small();
    const leaveBig = await big;
    expect(bigStarted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The small one fits beside the big one (20 + 90 MB is over 96: it waits for the big one).
    expect(laterStarted).toBe(false);
    leaveBig();
    (await later)();
    expect(gate.running).toBe(0);
  });
});
