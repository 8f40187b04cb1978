import type { RunProgress, SyncPhase } from '../reconcile/index.ts';

/** What a stream of progress needs (process.stderr, or a test double). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** Where each phase starts in the run's percent; applying fills the rest by its counts. */
const START: Record<SyncPhase, number> = {
  fetching: 0,
  normalizing: 20,
  snapshot: 25,
  planning: 35,
  applying: 40,
  done: 100,
};

/** The run's percent from a progress event: the phase's start, and within applying its counts. */
export function percentOf(p: RunProgress): number {
  if (p.phase !== 'applying' || p.total === 0) return START[p.phase];
  return START.applying + Math.floor((60 * Math.min(p.done, p.total)) / p.total);
}

/**
 * ` · 35/s · ETA 8s` for the writes done since `since` (the applying phase's start); '' until there
 * is a rate. One computation for the terminal's line and the job progress the dashboard shows.
 */
export function rateOf(p: RunProgress, since: number, now: number): string {
  if (p.phase !== 'applying' || p.done === 0 || now <= since) return '';
  const perSecond = (p.done * 1000) / (now - since);
  const eta = Math.ceil((p.total - p.done) / perSecond);
  return ` · ${perSecond.toFixed(perSecond < 10 ? 1 : 0)}/s · ETA ${eta < 60 ? `${eta}s` : `${Math.ceil(eta / 60)}m`}`;
}

/** The counts of a phase in words: `950 of 1000 records valid`, `120/400`; '' for a phase without. */
export function countsOf(p: RunProgress): string {
  if (p.total === 0) return '';
  if (p.phase === 'normalizing') return `${p.done} of ${p.total} records valid`;
  if (p.phase === 'applying') return `${p.done}/${p.total}`;
  return '';
}

/** `applying 70% 120/400 · 35/s · ETA 8s`: a progress as a person reads it (terminal, dashboard). */
export function progressText(p: RunProgress, rate = ''): string {
  const counts = countsOf(p);
  return `${p.phase} ${percentOf(p)}%${counts ? ` ${counts}` : ''}${rate}`;
}

/**
 * The one throttle of progress: passes a new phase and the end at once, and otherwise at most one
 * event every `intervalMs`, with the rate of the writes. The terminal's line redraws through it (100
 * ms) and the job's progress (the dashboard's live line) too (500 ms).
 */
export function throttleProgress(
  emit: (p: RunProgress, rate: string) => void,
  intervalMs: number,
  clock: () => number = Date.now,
): (p: RunProgress) => void {
  let last = Number.NEGATIVE_INFINITY;
  let phase: SyncPhase | undefined;
  let applyingSince = 0;
  return (p) => {
    const now = clock();
    if (p.phase === 'applying' && !applyingSince) applyingSince = now;
    const changed = p.phase !== phase;
    if (!changed && p.phase !== 'done' && now - last < intervalMs) return;
    last = now;
    phase = p.phase;
    emit(p, p.phase === 'applying' ? rateOf(p, applyingSince, now) : '');
  };
}

/**
 * Progress of a run on a stream. On a terminal: one line redrawn in place, at most ten times a
 * second, with the phase, counts, rate and ETA. Off a terminal (a pipe, a log file): one plain line
 * per phase, so a log shows where a run was without the noise of redraws.
 */
export function progressLine(
  label: string,
  stream: ProgressStream = process.stderr,
  clock: () => number = Date.now,
): { onProgress: (p: RunProgress) => void; clear(): void } {
  if (!stream.isTTY) {
    let phase = '';
    return {
      onProgress: (p) => {
        if (p.phase === phase) return;
        phase = p.phase;
        const counts = countsOf(p);
        stream.write(`${label}: ${p.phase}${counts ? ` ${counts}` : ''}${p.note ? ` (${p.note})` : ''}\n`);
      },
      clear: () => {},
    };
  }
  let shown = false;
  const onProgress = throttleProgress(
    (p, rate) => {
      shown = true;
      const text = `${label}: ${progressText(p, rate)}`;
      stream.write(`\r\x1b[2K${text.slice(0, (stream.columns || 80) - 1)}`);
    },
    100,
    clock,
  );
  return {
    onProgress: (p) => {
      // A note stays on a line of its own above the redrawn one.
      if (p.note) stream.write(`\r\x1b[2K${label}: ${p.note}\n`);
      onProgress(p);
    },
    clear: () => {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
