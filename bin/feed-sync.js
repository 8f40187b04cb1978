#!/usr/bin/env node
// The `feed-sync` binary: the TypeScript sources on Node 24's type stripping when they are here (a
// checkout), the built CLI otherwise (the container image, which ships dist/ only).
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli/main.ts', import.meta.url);
const built = new URL('../dist/src/cli/main.js', import.meta.url);
const { main } = await import(existsSync(sources) ? sources.href : built.href);
process.exitCode = await main(process.argv);
