import { describe, expect, it } from 'vitest';
import { pickFault } from './faults.ts';
import { DEFAULT_FAULTS } from './options.ts';
import { mulberry32 } from './random.ts';

describe('pickFault', () => {
  const faults = {
    ...DEFAULT_FAULTS,
    error500Rate: 0.1,
    rate429Rate: 0.2,
    hangRate: 0.1,
    malformedJsonRate: 0.1,
  };

  it.each([
    [0, 'list', 'error500'],
    [0.05, 'list', 'error500'],
    [0.1, 'list', 'rate429'],
    [0.29, 'list', 'rate429'],
    [0.35, 'list', 'hang'],
    [0.45, 'list', 'malformedJson'],
    [0.5, 'list', undefined],
    [0.55, 'create', 'ambiguousCreate'],
    [0.55, 'update', undefined],
    [0.65, 'create', undefined],
  ] as const)('r=%d on %s → %s', (r, operation, expected) => {
    expect(pickFault(r, { ...faults, ambiguousCreateRate: 0.1 }, operation)).toBe(expected);
  });

  it('refuses writes only', () => {
    const refusing = { ...DEFAULT_FAULTS, refuseRate: 1 };
    expect(['create', 'update', 'delete', 'list'].map((op) => pickFault(0.5, refusing, op as never))).toEqual(
      ['refused', 'refused', 'refused', undefined],
    );
  });

  it('never faults with all rates 0, always faults with a rate of 1', () => {
    expect(pickFault(0, DEFAULT_FAULTS, 'create')).toBeUndefined();
    expect(pickFault(0.999, { ...DEFAULT_FAULTS, hangRate: 1 }, 'list')).toBe('hang');
  });
});

describe('mulberry32', () => {
  it('repeats its sequence for the same seed and stays in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const first = Array.from({ length: 100 }, a);
    expect(Array.from({ length: 100 }, b)).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Array.from({ length: 100 }, mulberry32(43))).not.toEqual(first);
  });

  it('spreads its draws: about a third below 1/3 over 3000 draws', () => {
    const random = mulberry32(7);
    const below = Array.from({ length: 3000 }, random).filter((x) => x < 1 / 3).length;
    expect(below).toBeGreaterThan(900);
    expect(below).toBeLessThan(1100);
  });
});
