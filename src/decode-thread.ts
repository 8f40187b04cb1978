import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The thread that decodes the platform's list pages (`reconcile/decode-pool.ts`), started before
 * the program's modules load when the command will read pages. Only built-ins here: the CLI's entry
 * imports this before anything else loads.
 */

/** The thread's module: under reconcile/ in a checkout; beside the CLI's entry (or its chunks) when built. */
export function decodeWorkerPath(): string {
  const candidates = ['./reconcile/decode-worker.ts', './decode-worker.js', '../decode-worker.js'];
  for (const candidate of candidates) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error(`decode-worker not found beside ${fileURLToPath(import.meta.url)}`);
}

/** A new decode thread, not holding the process open. */
export function newDecodeThread(): Worker {
  const worker = new Worker(decodeWorkerPath(), { name: 'feed-sync decode' });
  worker.unref();
  return worker;
}

/** The commands whose runs read the platform's pages. */
const READS_PAGES = new Set(['sync', 'plan', 'demo']);

let early: Worker | undefined;

/**
 * Start the decode thread now when argv's command reads pages (its first word that is not an
 * option), and return it. A thread started for nothing (the command failed before its run) holds
 * nothing open and ends with the process.
 */
export function startDecodeThreadEarly(argv: readonly string[]): Worker | undefined {
  const command = argv.slice(2).find((arg) => !arg.startsWith('-'));
  if (early !== undefined || command === undefined || !READS_PAGES.has(command)) return undefined;
  let worker: Worker;
  try {
    worker = newDecodeThread();
  } catch {
    return undefined; // the run starts its own
  }
  // Failed before a run took it: forgotten, so the run starts another.
  const forget = () => {
    if (early === worker) early = undefined;
  };
  worker.once('error', forget);
  worker.once('exit', forget);
  early = worker;
  return worker;
}

/** The thread started early, if it is still running: the caller's from now on (once). */
export function takeEarlyDecodeThread(): Worker | undefined {
  const worker = early;
  early = undefined;
  return worker;
}
