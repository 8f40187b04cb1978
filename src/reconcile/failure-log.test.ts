import { describe, expect, it } from 'vitest';
import { FailureLog } from './failure-log.ts';
import type { Failure } from './report-types.ts';

const failure = (key: string, operation: Failure['operation'] = 'create'): Failure => ({
  key,
  operation,
  code: 'E_PLATFORM',
  message: `${operation}: platform answered Code 400: bad ${key}`,
});

/** 0..n-1 in a scrambled order (a multiplier coprime with n). */
const scrambled = (n: number) => Array.from({ length: n }, (_, i) => (i * 7919) % n);

describe('FailureLog', () => {
  it('counts every failure and keeps the first in key order, whatever order they came in', () => {
    const log = new FailureLog(10);
    const keys = scrambled(1000).map((i) => `K-${String(i).padStart(4, '0')}`);
    for (const key of keys) log.push(failure(key));
    expect(log.count).toBe(1000);
    expect(log.sorted().map((f) => f.key)).toEqual(Array.from({ length: 10 }, (_, i) => `K-000${i}`));
  });

  it('keeps them all under the bound, and every failed delete by key', () => {
    const log = new FailureLog(10);
    for (const i of scrambled(30)) log.push(failure(`D-${i}`, i % 3 === 0 ? 'delete' : 'update'));
    expect(log.count).toBe(30);
    expect(log.sorted()).toHaveLength(10);
    expect([...log.failedDeletes].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `D-${i * 3}`).sort());
    const few = new FailureLog(10);
    for (const key of ['b', 'a', 'c']) few.push(failure(key));
    expect(few.sorted().map((f) => f.key)).toEqual(['a', 'b', 'c']);
  });
});
