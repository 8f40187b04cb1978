import { describe, expect, it } from 'vitest';
import { answerBytes, hourIsBytes, limitsForBytes } from './byte-budget.ts';

const GB = 1_000_000_000;

describe('limitsForBytes', () => {
  it('leaves the limits as they are before any answer, or without a byte limit', () => {
    const limits = { perSecond: 2, perHour: 7200, bytesPerHour: 4 * GB };
    expect(limitsForBytes(limits, 0)).toEqual(limits);
    expect(limitsForBytes({ perHour: 7200 }, 5_000_000)).toEqual({ perHour: 7200 });
  });

  it('counts every answer at the largest size seen, one answer kept in reserve', () => {
    // 4 GB of 10 MB pages: 400 of them, one kept back.
    const inForce = limitsForBytes({ perSecond: 2, perHour: 7200, bytesPerHour: 4 * GB }, 10_000_000);
    expect(inForce).toEqual({ perSecond: 2, perHour: 399, bytesPerHour: 4 * GB });
    expect(hourIsBytes({ perHour: 7200 }, inForce)).toBe(true);
  });

  it('keeps the request limit when it is the stricter', () => {
    const limits = { perHour: 7200, bytesPerHour: 4 * GB };
    expect(limitsForBytes(limits, 100_000)).toBe(limits);
    expect(hourIsBytes(limits, limitsForBytes(limits, 100_000))).toBe(false);
  });

  it('sets an hourly limit where there was none, and never below one request', () => {
    expect(limitsForBytes({ bytesPerHour: 1000 }, 300)).toEqual({ bytesPerHour: 1000, perHour: 2 });
    expect(limitsForBytes({ bytesPerHour: 1000 }, 5000)).toEqual({ bytesPerHour: 1000, perHour: 1 });
  });
});

describe('answerBytes', () => {
  it('takes Content-Length as sent, else the UTF-8 length of the body', () => {
    expect(answerBytes(['Content-Encoding', 'gzip', 'Content-Length', '1234'], 'x'.repeat(9000))).toBe(1234);
    expect(answerBytes([], 'é€')).toBe(5);
    expect(answerBytes(['content-length', 'junk'], 'abc')).toBe(3);
  });
});
