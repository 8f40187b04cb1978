/**
 * The sandbox's rate limit (`rateLimitPerSecond`): at most N requests admitted in any window of
 * one second, as a gateway in front of a platform would enforce it. Sliding window of admitted
 * starts; a refused request does not count. Pure but for the array it keeps: `now` is passed in.
 */
export class RateWindow {
  #admitted: number[] = [];

  /** Admit a request at `now` (ms), or say how long until one would be. */
  admit(now: number, perSecond: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const since = now - 1000;
    let drop = 0;
    while (drop < this.#admitted.length && (this.#admitted[drop] as number) <= since) drop++;
    if (drop > 0) this.#admitted.splice(0, drop);
    if (this.#admitted.length < perSecond) {
      this.#admitted.push(now);
      return { ok: true };
    }
    const oldest = this.#admitted[this.#admitted.length - perSecond] as number;
    return { ok: false, retryAfterMs: Math.max(1, oldest + 1000 - now) };
  }
}
