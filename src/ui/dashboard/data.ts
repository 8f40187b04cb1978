import type { Job, Queue } from 'bullmq';
import { isResumeKick, PUSH_SETTINGS, SYNC_FEED } from '../../queue/index.ts';
import { SYNC_PHASES, type SyncPhase } from '../../reconcile/index.ts';
import type { LastPush } from './chatbots-page.ts';
import type { LiveRun } from './feeds-page.ts';

/** Jobs looked at for the live state and the last pushes: enough for dozens of feeds. */
const JOBS_SCANNED = 500;

function progressOf(job: Job): Omit<LiveRun, 'state'> {
  const p = job.progress;
  if (!p || typeof p !== 'object') return {};
  // What the job wrote (jobs/sync-feed.ts): the run's progress, its percent and the writes' rate.
  const { phase, done, total, rate } = p as {
    phase?: unknown;
    done?: unknown;
    total?: unknown;
    rate?: unknown;
  };
  if (typeof phase !== 'string' || !SYNC_PHASES.includes(phase as SyncPhase)) return {};
  return {
    progress: {
      phase: phase as SyncPhase,
      done: typeof done === 'number' ? done : 0,
      total: typeof total === 'number' ? total : 0,
    },
    ...(typeof rate === 'string' && rate ? { rate } : {}),
  };
}

/**
 * Feed runs queued or running, by feed id: the deduplicated jobs (the ones that run), active first.
 * Read from BullMQ, where the worker reports progress.
 */
export async function liveRuns(queue: Queue): Promise<Map<string, LiveRun>> {
  const live = new Map<string, LiveRun>();
  const active = await queue.getJobs(['active'], 0, JOBS_SCANNED);
  const waiting = await queue.getJobs(['waiting', 'prioritized', 'delayed'], 0, JOBS_SCANNED);
  for (const [state, jobs] of [
    ['active', active],
    ['waiting', waiting],
  ] as const) {
    for (const job of jobs) {
      const feedId = (job.data as { feedId?: unknown })?.feedId;
      if (job.name !== SYNC_FEED || typeof feedId !== 'string' || live.has(feedId)) continue;
      // A scheduler's job only forwards to the deduplicated run, and its next tick is not "queued".
      if (job.repeatJobKey) continue;
      // Nor is a resume kick, waiting until a provider's budget allows the run (`enqueueResume`).
      if (isResumeKick(job)) continue;
      live.set(feedId, { state, ...(state === 'active' ? progressOf(job) : {}) });
    }
  }
  return live;
}

/** Settings pushes queued or running, by chatbot. */
export async function pendingPushes(queue: Queue): Promise<Set<string>> {
  const jobs = await queue.getJobs(['active', 'waiting', 'prioritized'], 0, JOBS_SCANNED);
  const chatbots = jobs
    .filter((j) => j.name === PUSH_SETTINGS && !j.repeatJobKey)
    .map((j) => (j.data as { chatbot?: string }).chatbot);
  return new Set(chatbots.filter((s): s is string => typeof s === 'string'));
}

/**
 * The last settings push per chatbot that did something (pushed, or failed), from the queue's
 * finished jobs; `unchanged` runs are skipped so "last pushed" means what it says.
 */
export async function lastPushes(queue: Queue): Promise<Map<string, LastPush>> {
  const last = new Map<string, LastPush>();
  const jobs = [
    ...(await queue.getJobs(['completed'], 0, JOBS_SCANNED)),
    ...(await queue.getJobs(['failed'], 0, JOBS_SCANNED)),
  ].filter((j) => j.name === PUSH_SETTINGS && j.finishedOn);
  jobs.sort((a, b) => (b.finishedOn ?? 0) - (a.finishedOn ?? 0));
  for (const job of jobs) {
    const chatbot = (job.data as { chatbot?: string }).chatbot;
    if (!chatbot || last.has(chatbot)) continue;
    const at = new Date(job.finishedOn ?? 0);
    if (job.failedReason) {
      last.set(chatbot, { at, outcome: 'failed', fields: [], error: job.failedReason });
      continue;
    }
    const result = job.returnvalue as { outcome?: string; fields?: string[] } | null;
    if (result?.outcome !== 'pushed') continue;
    last.set(chatbot, { at, outcome: 'pushed', fields: result.fields ?? [] });
  }
  return last;
}
