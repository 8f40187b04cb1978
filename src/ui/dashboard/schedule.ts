import { cronParser } from '../../config/index.ts';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const two = (n: string) => n.padStart(2, '0');
const isNumber = (field: string) => /^\d+$/.test(field);
const step = (field: string) => /^\*\/(\d+)$/.exec(field)?.[1];
/** `every 2 hours`, `every hour` (a tester read `every 1 minutes`). */
const every = (n: string, unit: string) =>
  Number(n) === 1 ? `every ${unit}` : `every ${Number(n)} ${unit}s`;

/**
 * A cron expression in words, for the common shapes (`every 2 hours at :15`, `daily at 06:30`,
 * `Mondays at 07:00`); anything else is shown as the expression itself. Pure.
 */
export function describeCron(cron: string): string {
  let fields = cron.trim().split(/\s+/);
  let seconds: string | undefined;
  if (fields.length === 6) [seconds, ...fields] = fields;
  if (fields.length !== 5) return `cron ${cron}`;
  const [minute = '', hour = '', dom = '', month = '', dow = ''] = fields;
  const everyDay = dom === '*' && month === '*' && dow === '*';
  if (seconds !== undefined && seconds !== '0') {
    if (seconds === '*' && minute === '*' && hour === '*' && everyDay) return 'every second';
    const n = step(seconds);
    if (n && minute === '*' && hour === '*' && everyDay) return every(n, 'second');
    return `cron ${cron}`;
  }
  if (minute === '*' && hour === '*' && everyDay) return 'every minute';
  const everyMinutes = step(minute);
  if (everyMinutes && hour === '*' && everyDay) return every(everyMinutes, 'minute');
  if (!isNumber(minute)) return `cron ${cron}`;
  const everyHours = step(hour);
  if (hour === '*' && everyDay) return `hourly at :${two(minute)}`;
  if (everyHours === '1' && everyDay) return `hourly at :${two(minute)}`;
  if (everyHours && everyDay) return `${every(everyHours, 'hour')} at :${two(minute)}`;
  const hours = hour.split(',');
  if (!hours.every(isNumber)) return `cron ${cron}`;
  const at = hours.map((h) => `${two(h)}:${two(minute)}`).join(', ');
  if (everyDay) return `daily at ${at}`;
  if (dom === '*' && month === '*' && /^[0-7](,[0-7])*$/.test(dow))
    return `${dow
      .split(',')
      .map((d) => `${DAYS[Number(d)]}s`)
      .join(', ')} at ${at}`;
  if (dom === '*' && month === '*' && dow === '1-5') return `weekdays at ${at}`;
  if (isNumber(dom) && month === '*' && dow === '*') return `monthly on day ${dom} at ${at}`;
  return `cron ${cron}`;
}

/** The next two runs after `now` (in the schedule's time zone), or undefined for an invalid cron. */
export function nextRuns(cron: string, timezone: string, now: Date): [Date, Date] | undefined {
  try {
    const interval = cronParser().parse(cron, { tz: timezone, currentDate: now });
    const first = interval.next().toDate();
    return [first, interval.next().toDate()];
  } catch {
    return undefined;
  }
}

/** `23 Nov 2026, 14:00` in the given time zone. */
export function formatInZone(date: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date);
}

/** `just now`, `5 min ago`, `3 h ago`, `2 days ago`. */
export function ago(date: Date, now: Date): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} days ago`;
}

export { duration } from '../../render/index.ts';
