/**
 * `npm run lint` fails on an import cycle (issue 12) and on a folder that imports upwards (issue 24).
 *
 * Modules: no cycle, type-only imports included; a cycle means a boundary is in the wrong place, so
 * move the shared type down instead of importing around it.
 *
 * Folders: the folders of src/ and jobs/ import one way, down this list (bottom first), so there is no
 * cycle between folders either. The files at the root of src/ (errors, logger, canonical JSON) sit
 * below every folder. Config is the composition root above the stage libraries: each stage declares
 * the slice of config it reads (`FeedSpec`, `ApiConfig`, `RunConfig`…) and config composes their
 * schemas. Tests are exempt (nothing imports a test, so a test closes no cycle). A new folder must
 * be placed here, where its imports allow: the lint refuses a folder it does not know.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const LAYERS = [
  'src/budget', //     request budgets of provider keys (memory, state file, Redis, Postgres)
  'src/state', //      run state stores (memory, file, Redis, Postgres)
  'src/http', //       the one HTTP layer; distributed/: the limiters shared through Redis or Postgres
  'src/normalize', //  the listing schema and the mapping language: pure
  'src/sandbox', //    the platform's stand-in, written from the spec
  'src/api', //        the platform client
  'src/sources', //    transports and formats: raw records
  'src/ingest', //     raw records → listings, removals, rejections
  'src/reconcile', //  snapshot, plan, apply, report
  'src/settings', //   chatbot settings push
  'src/alerts', //     incidents from reports, the webhook
  'src/render', //     plans, reports and progress as text
  'src/config', //     the composition root: one loader, one schema made of the stages' schemas
  'src/explain', //    one listing end to end: its feed record, field traces, the platform's copy, the verdict
  'src/queue', //      the worker's store: queue, state, limiter, incidents on one connection
  'src/schedule', //   from config to jobs: schedulers, config-change runs, the config watcher
  'src/ui', //         the dashboard, bull-board, health, metrics
  'jobs', //           the processors and the worker service
  'src/cli', //        commands, on top of everything
  'src/testing', //    builders for tests and benchmarks, never imported by the product
];

const known = new Set(LAYERS);
const folders = readdirSync(join(__dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `src/${entry.name}`);
const unplaced = folders.filter((folder) => !known.has(folder));
if (unplaced.length > 0)
  throw new Error(
    `.dependency-cruiser.cjs: place ${unplaced.join(', ')} in LAYERS, below every folder that imports it`,
  );

const literal = (folder) => folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const importsDown = LAYERS.slice(0, -1).map((folder, i) => {
  const above = LAYERS.slice(i + 1);
  return {
    name: 'folders-import-down',
    severity: 'error',
    comment: `${folder} imports only the folders below it in LAYERS (.dependency-cruiser.cjs); ${above.join(', ')} are above it, and importing one of them makes a folder cycle or turns the picture upside down. Move the shared piece down (a type, a slice of config), or reorder LAYERS if nothing in the imported folder depends on ${folder}.`,
    from: { path: `^${literal(folder)}/`, pathNot: '\\.test\\.ts$' },
    to: { path: `^(${above.map(literal).join('|')})/` },
  };
});

/**
 * Every folder with an index.ts, at any depth (src/cli/commands, src/sandbox/reso… included): code
 * outside it goes through that index, its curated surface (no `export *`). A folder without one
 * (src/cli, src/testing, src/sources/formats…) is entered file by file. Tests and benches under
 * test/ and bench/ may reach into a folder.
 */
const indexed = [];
const findIndexed = (dir) => {
  for (const entry of readdirSync(join(__dirname, dir), { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'node_modules') continue;
    const folder = `${dir}/${entry.name}`;
    if (readdirSync(join(__dirname, folder)).includes('index.ts')) indexed.push(folder);
    findIndexed(folder);
  }
};
findIndexed('src');
indexed.push('jobs');
const throughIndex = indexed.map((folder) => ({
  name: 'through-index',
  severity: 'error',
  comment: `Code outside ${folder}/ goes through ${folder}/index.ts, its curated surface (no \`export *\`): export what is needed there, or import from inside the folder. Only tests and benches under test/ and bench/ may reach in.`,
  from: { path: '^(src|jobs|bin)/', pathNot: `^${literal(folder)}/` },
  to: { path: `^${literal(folder)}/`, pathNot: `^${literal(folder)}/index\\.ts$` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move the shared type or function down to a module both can import.',
      from: {},
      to: { circular: true },
    },
    ...importsDown,
    ...throughIndex,
    {
      name: 'root-files-import-no-folder',
      severity: 'error',
      comment:
        'The files at the root of src/ (errors, logger, canonical JSON) sit below every folder: they import none.',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^(src/[^/]+/|jobs/)' },
    },
    {
      name: 'sandbox-independent',
      severity: 'error',
      comment:
        'The sandbox is written from the spec: a sandbox that imports the client (or its listing schema) agrees with it by construction, so no test can catch a client that misreads the spec.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/(api|normalize|reconcile|sources|ingest|settings)/' },
    },
    {
      name: 'product-not-tests',
      severity: 'error',
      comment:
        'src/ and jobs/ never import test/ or bench/, unit tests beside the code included: what a unit test needs from outside its folder is in src/testing/.',
      from: { path: '^(src|jobs)/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'testing-for-tests-only',
      severity: 'error',
      comment: 'src/testing/ holds builders for tests and benchmarks: the product never imports them.',
      from: { path: '^(src|jobs|bin)/', pathNot: ['\\.test\\.ts$', '^src/testing/'] },
      to: { path: '^src/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    parser: 'swc',
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
