import { describe, expect, it } from 'vitest';
import { RateWindow } from './rate-window.ts';

describe('RateWindow', () => {
  it('admits N per sliding second and says when the next slot frees', () => {
    const window = new RateWindow();
    const at = (now: number) => window.admit(now, 3);
    expect([at(0), at(100), at(200)].every((r) => r.ok)).toBe(true);
    expect(at(300)).toEqual({ ok: false, retryAfterMs: 700 });
    expect(at(999)).toEqual({ ok: false, retryAfterMs: 1 });
    expect(at(1000).ok).toBe(true); // the start at 0 left the window
    expect(at(1050)).toEqual({ ok: false, retryAfterMs: 50 });
  });

  it('does not count refused requests', () => {
    const window = new RateWindow();
    window.admit(0, 1);
    for (let t = 10; t < 1000; t += 10) expect(window.admit(t, 1).ok).toBe(false);
    expect(window.admit(1000, 1).ok).toBe(true);
  });
});
