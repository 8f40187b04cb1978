#!/usr/bin/env node
// `npm run build` (and the Dockerfile, and the container test): the CLI as the image runs it,
// dist/src/cli/main.js, bundled by rolldown with the pure-JS dependencies it loads on every start
// (zod, yaml, commander, csv-parse, p-limit; got and fast-xml-parser in chunks of their own, imported
// on first use; cron-parser is required from node_modules on first use). Node then reads a
// few files instead of ~640 modules, and `feed-sync --help` starts in ~0.3 s instead of ~0.57 s
// (docs/performance.md, "Start-up"). Dependencies that read files of their own at run time (pino's
// worker threads, BullMQ's Lua scripts, PGlite's WebAssembly, bull-board's pages) or are native
// stay external and load from node_modules as before. Types are checked by `npm run typecheck`;
// this only strips them. `--out DIR` writes elsewhere than dist/.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'rolldown';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = `${resolve(ROOT, 'src')}/`;
const { values } = parseArgs({ options: { out: { type: 'string', default: resolve(ROOT, 'dist') } } });
const out = resolve(values.out);

/**
 * Built-ins read through `require`, not `import`: an ESM import of a built-in builds its namespace by
 * reading every export, and node:http's include lazy getters (WebSocket, CloseEvent, MessageEvent)
 * that load undici: 34 ms for `import('node:http')` alone against 3.5 for `require` (in the CLI's
 * start, at most ~10 ms: within the machine's noise), for classes feed-sync never uses. Each
 * imported one becomes a module that requires it and re-exports its plain values; a getter is
 * reachable only through the default export, and importing one by name, or reading one off a
 * namespace import, fails the build. A `require` of one (a bundled CommonJS package) stays as it is.
 */
const REQUIRED_BUILTINS = ['http', 'https', 'http2'];
const requireBuiltins = {
  name: 'require-builtins',
  resolveId(id, _importer, { kind }) {
    const name = id.replace(/^node:/, '');
    if (!REQUIRED_BUILTINS.includes(name)) return null;
    return kind === 'import-statement' || kind === 'dynamic-import'
      ? `\0required:${name}`
      : { id: `node:${name}`, external: true };
  },
  load(id) {
    if (!id.startsWith('\0required:')) return null;
    const name = id.slice('\0required:'.length);
    const values = Object.entries(
      Object.getOwnPropertyDescriptors(createRequire(import.meta.url)(`node:${name}`)),
    )
      .filter(([key, descriptor]) => !descriptor.get && /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default')
      .map(([key]) => key);
    return [
      "import { createRequire } from 'node:module';",
      `const m = createRequire(import.meta.url)('node:${name}');`,
      'export default m;',
      ...values.map((key) => `export const ${key} = m.${key};`),
    ].join('\n');
  },
};

/** Loaded from node_modules at run time, not bundled (see above). */
const EXTERNAL = [
  // required when a cron expression is first read (src/config/cron.ts), from node_modules
  'cron-parser',
  'pino',
  'thread-stream',
  'bullmq',
  'ioredis',
  'pg',
  'express',
  'prom-client',
  '@electric-sql/pglite',
  '@electric-sql/pglite-socket',
  '@bull-board/api',
  '@bull-board/express',
];
const external = (id) =>
  (id.startsWith('node:') && !REQUIRED_BUILTINS.includes(id.slice(5))) ||
  EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`));

rmSync(out, { recursive: true, force: true });
await build({
  // The decode thread's module (src/reconcile/decode-pool.ts) sits beside the CLI's entry.
  input: {
    main: resolve(ROOT, 'src/cli/main.ts'),
    'decode-worker': resolve(ROOT, 'src/reconcile/decode-worker.ts'),
  },
  platform: 'node',
  plugins: [requireBuiltins],
  external,
  // Our modules do nothing when loaded but define things (none is imported for what it does on
  // load), so one whose exports go unused is left out of a chunk: the decode thread's entry loads
  // the page's schema, canonical form and digest, not the barrels' other modules (got, the config).
  treeshake: { moduleSideEffects: (id, external) => external || !id.startsWith(SRC) },
  // Silence only what is expected: nothing here is renamed, so direct eval warnings are moot.
  onLog(level, log, handler) {
    if (log.code === 'EVAL') return;
    // A getter of a required built-in read off its namespace would be undefined: an error.
    if (log.code === 'IMPORT_IS_UNDEFINED' && log.message.includes('required:')) return handler('error', log);
    handler(level, log);
  },
  output: {
    dir: resolve(out, 'src/cli'),
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    // What Node reads on every start, smaller: ~200 KB of the main chunk's 940 were comments, and
    // the few characters past ASCII (a `×`, a `…`) made V8 hold each whole chunk as two-byte text,
    // decoded from UTF-8 first. Escaped, and comments dropped (legal ones kept): `feed-sync
    // --version` starts ~15–20 ms sooner (docs/performance.md). Not minified: a stack trace in a
    // log keeps its names and a line of its own per statement (removing the whitespace too, the
    // main chunk's 156 lines, gained nothing more).
    charset: 'ascii',
    comments: { legal: true, annotation: false, jsdoc: false },
  },
});
