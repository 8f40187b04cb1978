/** One limit: at most `limit` units (requests, or bytes) in any `windowMs` (a sliding window). */
export interface Limit {
  /** Stable name, used in messages and control output: `second`, `minute`, `hour`, `day`, `bytesPerHour`. */
  name: string;
  windowMs: number;
  limit: number;
  /** What is counted. */
  unit: 'requests' | 'bytes';
}

/** Where one limit stands for one key at one instant. */
export interface Usage {
  limit: Limit;
  used: number;
  remaining: number;
  /** When the oldest counted unit leaves the window (ms since the epoch); `now` when nothing is counted. */
  resetAt: number;
}

/** A sliding log of (time, amount) for one key and one limit. */
class Log {
  private times: number[] = [];
  private amounts: number[] = [];
  private head = 0;
  total = 0;

  prune(now: number, windowMs: number): void {
    while (this.head < this.times.length && this.times[this.head]! <= now - windowMs) {
      this.total -= this.amounts[this.head]!;
      this.head++;
    }
    if (this.head > 4096 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.amounts = this.amounts.slice(this.head);
      this.head = 0;
    }
  }

  add(now: number, amount: number): void {
    this.times.push(now);
    this.amounts.push(amount);
    this.total += amount;
  }

  oldest(): number | undefined {
    return this.head < this.times.length ? this.times[this.head] : undefined;
  }
}

/**
 * Per-key budgets over sliding windows. Only admitted requests count (a refused request costs
 * nothing); bytes are counted after the answer is sent, so the request that crosses a byte limit is
 * served and the next one is refused.
 */
export class Budget {
  private readonly logs = new Map<string, Log[]>();

  limits: Limit[];

  constructor(limits: Limit[]) {
    this.limits = limits;
  }

  /** The first request limit the next request would exceed, or undefined when it may go. */
  exceeded(key: string, now: number): Usage | undefined {
    for (const usage of this.usage(key, now)) {
      const next = usage.limit.unit === 'requests' ? 1 : 0;
      if (usage.used + next > usage.limit.limit) return usage;
    }
    return undefined;
  }

  admit(key: string, now: number): void {
    const logs = this.logsOf(key);
    this.limits.forEach((limit, n) => {
      if (limit.unit === 'requests') logs[n]!.add(now, 1);
    });
  }

  addBytes(key: string, now: number, bytes: number): void {
    const logs = this.logsOf(key);
    this.limits.forEach((limit, n) => {
      if (limit.unit === 'bytes') logs[n]!.add(now, bytes);
    });
  }

  usage(key: string, now: number): Usage[] {
    const logs = this.logsOf(key);
    return this.limits.map((limit, n) => {
      const log = logs[n]!;
      log.prune(now, limit.windowMs);
      const oldest = log.oldest();
      return {
        limit,
        used: log.total,
        remaining: Math.max(0, limit.limit - log.total),
        resetAt: oldest === undefined ? now : oldest + limit.windowMs,
      };
    });
  }

  reset(): void {
    this.logs.clear();
  }

  private logsOf(key: string): Log[] {
    let logs = this.logs.get(key);
    if (!logs) {
      logs = this.limits.map(() => new Log());
      this.logs.set(key, logs);
    }
    return logs;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
