#!/usr/bin/env node
/**
 * The CLI's entry, kept small: the program's modules (`program.ts`: every command and what it
 * runs, ~0.25 s of the start) load only once this has started the decode thread for a command that
 * reads the platform's pages. The thread's own start (Node in a worker, then its modules: ~0.13 s
 * of CPU) then runs on the other core while this one loads, where it used to start with the run and
 * take that core from the feed being read (docs/performance.md).
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
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

/**
 * Whether this module is the process's entry (`node dist/src/cli/main.js …`). `import.meta.main`
 * is Node 24.2's; before it, undefined: the entry is then told by the path node was given, so an
 * older Node says it is too old rather than doing nothing and exiting 0 (a new user's `sync` synced
 * nothing and `healthcheck` said healthy).
 */
function isEntry(): boolean {
  if (import.meta.main !== undefined) return import.meta.main;
  const given = process.argv[1];
  if (given === undefined) return false;
  try {
    return pathToFileURL(realpathSync(given)).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isEntry()) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) {
    process.stderr.write(
      `feed-sync needs Node 24 or newer, and this is Node ${process.versions.node}: run the image, or ` +
        '`node_modules/.bin/node dist/src/cli/main.js` where `npm ci` installed the project (Node 24 ' +
        'in node_modules/.bin), or install Node 24.\n',
    );
    process.exitCode = 1;
  } else {
    startEarly();
    process.exitCode = await main();
  }
}
