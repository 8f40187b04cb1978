import { describe, expect, it } from 'vitest';
import { createMemoryGate, mayStart } from './memory-gate.ts';

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
    const first = await gate.enter();
    used = 100;
    let started = false;
    const second = gate.enter().then((leave) => {
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
    const leave = await gate.enter();
    const controller = new AbortController();
    const waiting = gate.enter(controller.signal);
    controller.abort(new Error('worker shutting down'));
    await expect(waiting).rejects.toThrow('worker shutting down');
    leave();
  });
});
