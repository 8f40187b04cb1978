/**
 * `npm run bench -- <name> [options]`: run one benchmark by name. Each bench is a module in this
 * folder exporting `run(args)`.
 */
const BENCHES: Record<string, () => Promise<{ run(args: string[]): Promise<void> }>> = {
  sync: () => import('./sync.ts'),
  ingest: () => import('./ingest.ts'),
  queue: () => import('./queue-backends.ts'),
  scale: () => import('./scale.ts'),
  aimd: () => import('./aimd.ts'),
  noop: () => import('./noop.ts'),
  fleet: () => import('./fleet.ts'),
};

const [name, ...args] = process.argv.slice(2);
const load = name ? BENCHES[name] : undefined;
if (!load) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(BENCHES).join('|')}> [options]\n`);
  process.exitCode = 2;
} else {
  await (await load()).run(args);
}
