#!/usr/bin/env node
// The published entry: runs the built CLI (npm run build), or the sources on Node 24's type stripping.
import { existsSync } from 'node:fs';

const built = new URL('../dist/src/cli/main.js', import.meta.url);
await import(existsSync(built) ? built.href : new URL('../src/cli/main.ts', import.meta.url).href);
