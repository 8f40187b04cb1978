import { afterEach, describe, expect, it } from 'vitest';
import { runtimeSalt } from './run-memo.ts';

describe('runtimeSalt', () => {
  const before = process.env.TZ;
  afterEach(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });

  it('names the time zone, so a memo made in another zone is not used', () => {
    process.env.TZ = 'UTC';
    const utc = runtimeSalt();
    process.env.TZ = 'America/New_York';
    const newYork = runtimeSalt();
    process.env.TZ = 'Asia/Kolkata';
    const kolkata = runtimeSalt();
    expect(new Set([utc, newYork, kolkata]).size).toBe(3);
    expect(newYork).toContain('GMT-0500');
    expect(newYork).toContain('GMT-0400');
    expect(kolkata).toContain('GMT+0530');
    process.env.TZ = 'UTC';
    expect(runtimeSalt()).toBe(utc);
  });

  it('names the runtime', () => {
    expect(runtimeSalt()).toContain(process.version);
  });
});
