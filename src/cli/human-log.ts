/** What the formatter needs of a stream (process.stderr, or a test double). */
export interface LogStream {
  write(text: string): unknown;
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line has, or that say nothing to a person at a terminal. */
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'v']);

function value(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/**
 * One pino JSON line as a person reads it at a terminal: `12:04:05 WARN sync finished feedId=acme …`.
 * A line that is not JSON is passed through as it is.
 */
export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toTimeString().slice(0, 8) : '';
  const level = LEVELS[entry.level as number] ?? String(entry.level ?? '');
  const fields = Object.entries(entry)
    .filter(([key, v]) => !HIDDEN.has(key) && v !== undefined)
    .map(([key, v]) => `${key}=${value(v)}`);
  return `${[time, level, entry.msg ?? '', ...fields].filter(Boolean).join(' ')}\n`;
}

/** A pino destination that writes human lines to `stream` (stderr at a terminal). */
export function humanLogDestination(stream: LogStream = process.stderr): { write(line: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) stream.write(formatLogLine(line));
    },
  };
}
