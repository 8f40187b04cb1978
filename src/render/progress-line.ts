import type { RunEvent } from '../reconcile/index.ts';

type Progress = (progress: Omit<Extract<RunEvent, { type: 'progress' }>, 'type'>) => void;

/** What the progress line needs of a stream (process.stderr, or a test double). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * `120/400` (the applying phase's counts) since `since` → ` · 35/s · ETA 8s`; '' until there is a
 * rate. Shared by the terminal's progress line and the job progress the dashboard shows.
 */
export function rateOf(detail: string | undefined, since: number, now: number): string {
  const match = /^(\d+)\/(\d+)$/.exec(detail ?? '');
  if (!match || now <= since) return '';
  const done = Number(match[1]);
  const total = Number(match[2]);
  const perSecond = (done * 1000) / (now - since);
  if (done === 0 || perSecond <= 0) return '';
  const eta = Math.ceil((total - done) / perSecond);
  return ` · ${perSecond.toFixed(perSecond < 10 ? 1 : 0)}/s · ETA ${eta < 60 ? `${eta}s` : `${Math.ceil(eta / 60)}m`}`;
}

/**
 * Progress of a run. On a terminal: one line on stderr redrawn in place, at most ten times a second,
 * with the phase, counts, rate and ETA. Off a terminal (a pipe, a log file): one plain line per
 * phase, so a log shows where a run was without the noise of redraws.
 */
export function progressLine(
  label: string,
  stream: ProgressStream = process.stderr,
  clock: () => number = Date.now,
): { onProgress: Progress; clear(): void } {
  if (!stream.isTTY) {
    let phase = '';
    return {
      onProgress: (p) => {
        if (p.phase === phase) return;
        phase = p.phase;
        stream.write(`${label}: ${p.phase}${p.detail ? ` ${p.detail}` : ''}\n`);
      },
      clear: () => {},
    };
  }
  let last = 0;
  let shown = false;
  let applyingSince = 0;
  return {
    onProgress: (p) => {
      const now = clock();
      if (p.phase === 'applying' && !applyingSince) applyingSince = now;
      if (p.phase !== 'done' && now - last < 100) return;
      last = now;
      shown = true;
      const rate = p.phase === 'applying' ? rateOf(p.detail, applyingSince, now) : '';
      const text = `${label}: ${p.phase} ${p.percent}%${p.detail ? ` ${p.detail}` : ''}${rate}`;
      stream.write(`\r\x1b[2K${text.slice(0, (stream.columns || 80) - 1)}`);
    },
    clear: () => {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
