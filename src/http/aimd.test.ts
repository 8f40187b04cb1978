import { describe, expect, it } from 'vitest';
import { type AimdState, aimdOverload, aimdStateOf, aimdSuccess, initialAimd, isOverload } from './aimd.ts';

const options = { max: 8, probeStreak: 20, stepStreak: 1 };
/** `n` successes of requests started at the current generation. */
const successes = (state: AimdState, n: number) => {
  let s = state;
  for (let i = 0; i < n; i++) s = aimdSuccess(s, s.generation, options);
  return s;
};
const overload = (state: AimdState) => aimdOverload(state, state.generation, options);

describe('AIMD controller', () => {
  it('starts at the configured concurrency and never grows past it', () => {
    const start = initialAimd(options);
    expect(start.limit).toBe(8);
    expect(successes(start, 1000).limit).toBe(8);
  });

  it('halves on an overload (rounding up), remembers the limit it met, never goes below one', () => {
    expect(overload(initialAimd(options))).toMatchObject({ limit: 4, ceiling: 8, generation: 1 });
    expect(overload({ ...initialAimd(options), limit: 3 })).toMatchObject({ limit: 2, ceiling: 3 });
    let s = initialAimd(options);
    for (let i = 0; i < 10; i++) s = overload(s);
    expect(s.limit).toBe(1);
  });

  it('reacts once per generation: answers to requests sent at the old limit change nothing', () => {
    const halved = overload(initialAimd(options));
    expect(aimdOverload(halved, 0, options)).toBe(halved);
    expect(aimdSuccess(halved, 0, options)).toBe(halved);
    expect(aimdOverload(halved, 1, options).limit).toBe(2);
  });

  it('adds one per window of successes below the ceiling', () => {
    const s = overload(initialAimd(options)); // limit 4, ceiling 8
    expect(successes(s, 3).limit).toBe(4);
    expect(successes(s, 4).limit).toBe(5);
    expect(successes(s, 4 + 5).limit).toBe(6);
    expect(successes(s, 4 + 5 + 6).limit).toBe(7);
  });

  it('needs at least stepStreak successes per step, however small the limit', () => {
    const slow = { ...options, stepStreak: 10 };
    let t: AimdState = { limit: 1, streak: 0, sinceDecrease: 0, ceiling: 8, generation: 3 };
    for (let i = 0; i < 9; i++) t = aimdSuccess(t, t.generation, slow);
    expect(t.limit).toBe(1);
    expect(aimdSuccess(t, t.generation, slow).limit).toBe(2);
  });

  it('steps up to the limit that met an overload only after a long streak', () => {
    let s = overload({ ...initialAimd(options), limit: 6 }); // limit 3, ceiling 6
    s = successes(s, 3 + 4); // 3 → 4 → 5 quickly
    expect(s.limit).toBe(5);
    expect(successes(s, 19).limit).toBe(5);
    s = successes(s, 20);
    expect(s).toMatchObject({ limit: 6, ceiling: 6 });
    // Past the old ceiling without an overload: the memory is dropped and growth is quick again.
    s = successes(s, 20);
    expect(s).toMatchObject({ limit: 7, ceiling: 0 });
    expect(successes(s, 7).limit).toBe(8);
  });

  it('an overload before a window of successes is the same burst: halves again, keeps the ceiling', () => {
    let s = overload({ ...initialAimd(options), limit: 6 }); // limit 3, ceiling 6
    s = overload(successes(s, 2));
    expect(s).toMatchObject({ limit: 2, ceiling: 6 });
    // A new overload after a full window of successes is news: its limit is the new ceiling.
    s = successes(s, 2 + 3); // 2 → 3 → 4
    expect(s.limit).toBe(4);
    s = overload(s);
    expect(s).toMatchObject({ limit: 2, ceiling: 4 });
  });

  it('follows a lowered concurrency at once', () => {
    const start = initialAimd({ max: 16 });
    expect(aimdSuccess(start, 0, { max: 4 }).limit).toBe(4);
    expect(aimdOverload(start, 0, { max: 4 }).limit).toBe(2);
  });

  it.each([
    [{ rateLimited: true }, true],
    [{ code: 'E_TIMEOUT' }, true],
    [{ rateLimited: false, code: 'E_HTTP' }, false],
    [new Error('boom'), false],
    [undefined, false],
  ])('isOverload(%o) is %s', (error, expected) => {
    expect(isOverload(error)).toBe(expected);
  });
});

describe('aimdStateOf', () => {
  it('takes a stored state with every field a finite number, and nothing else', () => {
    const state = { limit: 3, streak: 1, sinceDecrease: 2, ceiling: 6, generation: 4 };
    expect(aimdStateOf({ ...state, extra: 'x' })).toEqual(state);
    expect(aimdStateOf({ ...state, limit: '3' })).toBeUndefined();
    expect(aimdStateOf({ ...state, generation: null })).toBeUndefined();
    expect(aimdStateOf(null)).toBeUndefined();
    expect(aimdStateOf('{"limit":3}')).toBeUndefined();
  });
});
