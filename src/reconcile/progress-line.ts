import type { RunEvent } from './run-types.ts';

type Progress = (progress: Omit<Extract<RunEvent, { type: 'progress' }>, 'type'>) => void;

/** What the progress line needs of a stream (process.stderr, or a test double). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * A one-line progress display for a terminal, redrawn in place on stderr, at most ten times a
 * second. Off the terminal it writes nothing, so logs and pipes stay clean.
 */
export function progressLine(
  label: string,
  stream: ProgressStream = process.stderr,
  clock: () => number = Date.now,
): { onProgress: Progress; clear(): void } {
  if (!stream.isTTY) return { onProgress: () => {}, clear: () => {} };
  let last = 0;
  let shown = false;
  return {
    onProgress: (p) => {
      const now = clock();
      if (p.phase !== 'done' && now - last < 100) return;
      last = now;
      shown = true;
      const text = `${label}: ${p.phase} ${p.percent}%${p.detail ? ` ${p.detail}` : ''}`;
      stream.write(`\r\x1b[2K${text.slice(0, (stream.columns || 80) - 1)}`);
    },
    clear: () => {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
