import { describe, expect, it } from 'vitest';
import { ago, describeCron, duration, formatInZone, nextRuns } from './schedule.ts';

describe('describeCron', () => {
  it.each([
    ['0 */2 * * *', 'every 2 hours at :00'],
    ['15 * * * *', 'hourly at :15'],
    ['*/10 * * * *', 'every 10 minutes'],
    ['*/1 * * * *', 'every minute'],
    ['15 */1 * * *', 'hourly at :15'],
    ['*/1 * * * * *', 'every second'],
    ['30 6 * * *', 'daily at 06:30'],
    ['0 6,18 * * *', 'daily at 06:00, 18:00'],
    ['0 7 * * 1', 'Mondays at 07:00'],
    ['0 7 * * 1-5', 'weekdays at 07:00'],
    ['0 3 1 * *', 'monthly on day 1 at 03:00'],
    ['* * * * * *', 'every second'],
    ['0 30 6 * * *', 'daily at 06:30'],
    ['0 0 1 1 *', 'cron 0 0 1 1 *'],
  ])('%s → %s', (cron, words) => {
    expect(describeCron(cron)).toBe(words);
  });
});

describe('times', () => {
  it('next runs in the feed time zone', () => {
    const now = new Date('2026-11-23T10:05:00Z');
    const [next, after] = nextRuns('0 */2 * * *', 'America/New_York', now) ?? [];
    expect(next?.toISOString()).toBe('2026-11-23T11:00:00.000Z');
    expect(after?.toISOString()).toBe('2026-11-23T13:00:00.000Z');
    expect(formatInZone(next as Date, 'America/New_York')).toBe('23 Nov 2026, 06:00');
    expect(nextRuns('not a cron', 'UTC', now)).toBeUndefined();
  });

  it('ago and duration read like a person says them', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    expect(ago(new Date('2026-11-23T09:59:50Z'), now)).toBe('just now');
    expect(ago(new Date('2026-11-23T09:55:00Z'), now)).toBe('5 min ago');
    expect(ago(new Date('2026-11-23T07:00:00Z'), now)).toBe('3 h ago');
    expect(ago(new Date('2026-11-20T10:00:00Z'), now)).toBe('3 days ago');
    expect([duration(850), duration(12_400), duration(185_000)]).toEqual(['850 ms', '12.4 s', '3 min 5 s']);
    // Rounded once: never `1 min 60 s`.
    expect(duration(119_600)).toBe('2 min 0 s');
  });
});
