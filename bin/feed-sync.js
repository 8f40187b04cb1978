#!/usr/bin/env node
// The `feed-sync` binary: the TypeScript sources on Node 24's type stripping when they are here (a
// checkout), the built CLI otherwise (the container image, which ships dist/ only).
import { existsSync } from 'node:fs';
import module from 'node:module';

// Kept to syntax every Node since 14 parses, so an old Node gets this line and not a stack trace.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `feed-sync needs Node 24 or newer, and this is Node ${process.versions.node}: ` +
      'run it as `npx feed-sync` or `npm run feed-sync --` in the project (npm ci installs Node 24 ' +
      'in node_modules/.bin), or install Node 24 (e.g. `nvm install 24`).\n',
  );
  process.exit(1);
}

// V8's code cache (and the type-stripped sources) on disk, in the temp folder: a second start
// compiles nothing it compiled before (~0.85 → ~0.5 s for `--help` from the sources). A cache it
// cannot write is no error. NODE_COMPILE_CACHE, when set, names the folder instead.
module.enableCompileCache?.();

const sources = new URL('../src/cli/main.ts', import.meta.url);
const built = new URL('../dist/src/cli/main.js', import.meta.url);
const entry = await import(existsSync(sources) ? sources.href : built.href);
// The decode thread, for a command that reads the platform's pages, before the program loads.
entry.startEarly(process.argv);
process.exitCode = await entry.main(process.argv);
