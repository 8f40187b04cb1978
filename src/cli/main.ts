#!/usr/bin/env node
/**
 * The CLI's entry, kept small: the program's modules (`program.ts`: every command and what it
 * runs, ~0.25 s of the start) load only once this has started the decode thread for a command that
 * reads the platform's pages. The thread's own start (Node in a worker, then its modules: ~0.13 s
 * of CPU) then runs on the other core while this one loads, where it used to start with the run and
 * take that core from the feed being read (docs/performance.md).
 */
import { startDecodeThreadEarly } from '../decode-thread.ts';
import { holdEarlySignals } from './early-signals.ts';

/** Runs the CLI and returns the exit code (README "Exit codes"). Never throws. */
export async function main(argv: string[] = process.argv): Promise<number> {
  let program: typeof import('./program.ts');
  try {
    program = await import('./program.ts');
  } catch (error) {
    // An install missing its files (a dist/ copied without its chunks): one line, not a stack.
    process.stderr.write(
      `feed-sync: the program could not be loaded (${(error as Error).message}): reinstall it\n`,
    );
    return 1;
  }
  return program.main(argv);
}

/** What the entry does before the program loads (`bin/feed-sync.js` calls it too). */
export function startEarly(argv: readonly string[] = process.argv): void {
  holdEarlySignals();
  startDecodeThreadEarly(argv);
}

if (import.meta.main) {
  startEarly();
  process.exitCode = await main();
}
