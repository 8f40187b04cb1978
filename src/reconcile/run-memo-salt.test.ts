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
    // Offsets in minutes west of UTC, winter and summer: a number, not a name in the process's locale.
    expect(newYork).toMatch(/(^| |,)300,240(,|$)/);
    expect(kolkata).toMatch(/(^| |,)-330,-330(,|$)/);
    expect(utc).not.toMatch(/Time|GMT/);
    process.env.TZ = 'UTC';
    expect(runtimeSalt()).toBe(utc);
  });

  it('names the runtime', () => {
    expect(runtimeSalt()).toContain(process.version);
  });
});
