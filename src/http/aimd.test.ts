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
    let t: AimdState = { ...initialAimd(options), limit: 1, ceiling: 8, generation: 3 };
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

describe('the learned rate', () => {
  const paced = { max: 8, rateMargin: 0.95, rateProbe: 0.1, rateProbeSeconds: 2 };
  const succeed = (state: AimdState, n: number) => {
    let s = state;
    for (let i = 0; i < n; i++) s = aimdSuccess(s, s.generation, paced);
    return s;
  };
  /** A burst met with `recent` starts in the second before it: its first 429, then one more sent before it. */
  const burst = (state: AimdState, recent: number) => {
    const first = aimdOverload(state, state.generation, paced, recent);
    return aimdOverload(first, state.generation, paced, recent + 1);
  };

  it('is unknown (unpaced) until a burst of 429s, then a little below the starts of the second before it', () => {
    const start = initialAimd(paced);
    expect(start.rate).toBe(0);
    expect(succeed(start, 100).rate).toBe(0);
    expect(burst(start, 20)).toMatchObject({ rate: 19, pendingRate: 0, generation: 1 });
  });

  it('a lone 429 teaches nothing; nor one met after fewer starts than max, or uncounted', () => {
    const lone = aimdOverload(initialAimd(paced), 0, paced, 20);
    expect(lone).toMatchObject({ rate: 0, pendingRate: 19 });
    // The next 429 is news (sent after the decrease): its own count waits for confirmation again.
    expect(aimdOverload(succeed(lone, 3), lone.generation, paced, 30)).toMatchObject({
      rate: 0,
      pendingRate: 28.5,
    });
    expect(burst(initialAimd(paced), 7).rate).toBe(0);
    expect(burst(initialAimd(paced), 0).rate).toBe(0);
  });

  it('the tail of the same burst leaves it alone; a second of paced successes later, it is news', () => {
    const first = burst(initialAimd(paced), 20); // rate 19
    const tail = aimdOverload(succeed(first, 5), first.generation, paced, 8);
    expect(tail.rate).toBe(19);
    const later = aimdOverload(succeed(first, 19), first.generation, paced, 18);
    expect(later.rate).toBeCloseTo(19 * 0.95);
  });

  it('met at about the paced rate: nudged down; met well below it: down to what was admitted', () => {
    const first = burst(initialAimd(paced), 20); // rate 19
    const at = (recent: number) => aimdOverload(succeed(first, 19), first.generation, paced, recent).rate;
    expect(at(19)).toBeCloseTo(18.05);
    expect(at(17)).toBeCloseTo(18.05);
    expect(at(14)).toBeCloseTo(13.3);
    // Never below half the paced rate at one overload.
    expect(at(2)).toBe(9.5);
  });

  it('probes up by rateProbe after rateProbeSeconds of successes at the paced rate', () => {
    const first = burst(initialAimd(paced), 10); // rate 9.5: a probe every 19
    expect(succeed(first, 18).rate).toBe(9.5);
    expect(succeed(first, 19).rate).toBeCloseTo(10.45);
    expect(succeed(first, 19).rateStreak).toBe(0);
  });

  it('keeps counting at full concurrency, where the limit no longer moves', () => {
    const atMax = { ...burst(initialAimd(paced), 10), limit: 8 };
    expect(succeed(atMax, 19)).toMatchObject({ limit: 8, rate: expect.closeTo(10.45) });
  });
});

describe('aimdStateOf', () => {
  it('takes a stored state with every field a finite number, and nothing else', () => {
    const state = {
      ...{ limit: 3, streak: 1, sinceDecrease: 2, ceiling: 6, generation: 4 },
      ...{ rate: 19, rateStreak: 7, pendingRate: 0 },
    };
    expect(aimdStateOf({ ...state, extra: 'x' })).toEqual(state);
    // A state stored before rates were learned is unpaced.
    expect(aimdStateOf({ ...state, rate: undefined, rateStreak: undefined })).toEqual({
      ...state,
      rate: 0,
      rateStreak: 0,
    });
    expect(aimdStateOf({ ...state, pendingRate: 12 })?.pendingRate).toBe(12);
    expect(aimdStateOf({ ...state, limit: '3' })).toBeUndefined();
    expect(aimdStateOf({ ...state, generation: null })).toBeUndefined();
    expect(aimdStateOf(null)).toBeUndefined();
    expect(aimdStateOf('{"limit":3}')).toBeUndefined();
  });
});

describe('rateEvidence', () => {
  it('teaches a rate from a 429 only: a timeout says the platform was slow, not its rate', async () => {
    const { rateEvidence, aimdOverload, initialAimd } = await import('./aimd.ts');
    expect(rateEvidence({ rateLimited: true }, 19)).toBe(19);
    expect(rateEvidence({ code: 'E_TIMEOUT' }, 19)).toBe(0);
    expect(rateEvidence(undefined, 19)).toBe(0);
    const options = { max: 8 };
    // Two answers of one burst (both started in generation 0).
    let timedOut = initialAimd(options);
    for (let i = 0; i < 2; i++)
      timedOut = aimdOverload(timedOut, 0, options, rateEvidence({ code: 'E_TIMEOUT' }, 10));
    expect(timedOut.rate).toBe(0);
    expect(timedOut.limit).toBeLessThan(8);
    let refused = initialAimd(options);
    for (let i = 0; i < 2; i++)
      refused = aimdOverload(refused, 0, options, rateEvidence({ rateLimited: true }, 10));
    expect(refused.rate).toBeGreaterThan(0);
  });
});
