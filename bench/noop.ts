/**
 * `npm run bench -- noop [--listings 10000] [--latency 50] [--page-size 1000]`: a no-op resync
 * (every listing unchanged, compared field by field) against just reading the pages.
 *
 * The sandbox runs in its own process (as the platform is remote); the chatbot is seeded with the
 * listings exactly as a sync writes them (ownership tag and record hash), then both are measured: `pages` reads every page with the client exactly as the snapshot does
 * (page 1, then the rest `concurrency` at a time) and keeps nothing; `no-op` is the whole
 * `syncFeed` over the same listings. Goal (issue 13, goal 2): no-op ≤ 1.5× pages.
 */
import { writeFileSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { clientFromConfig } from '../src/api/index.ts';
import { type Config, configSchema } from '../src/config/schema.ts';
import { silentLogger } from '../src/logger.ts';
import type { Listing } from '../src/normalize/listing-schema.ts';
import { DEFAULT_HASH_KEY, syncFeed, withTags } from '../src/reconcile/index.ts';
import { createMemoryStateStore } from '../src/state/state-store.ts';
import { LISTING_MAPPING, recordsFeed } from '../src/testing/records-feed.ts';
import { startSandboxProcess } from './lib/sandbox-process.ts';
import { fmtMs, machine, out, printTable, ratio } from './lib/table.ts';
import { initialFeed } from './sync-scenarios.ts';

const GOAL = 1.5;
const TAGS = { ownerKey: 'feed-sync:feed', hashKey: DEFAULT_HASH_KEY };
const profiles: Profiler.Profile[] = [];

/** The inspector's profiler, to profile the no-op syncs and not the setup around them. */
async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  return session;
}

async function sync(config: Config, listings: Listing[]) {
  const feed = config.feeds[0]!;
  const started = performance.now();
  const { report } = await syncFeed(config, feed, {
    client: clientFromConfig(config),
    state: createMemoryStateStore(),
    logger: silentLogger,
    open: recordsFeed(listings),
  });
  return { report, ms: performance.now() - started };
}

/** Every page, read the way the snapshot reads them, kept nowhere. */
async function readPages(config: Config, chatbot: string): Promise<{ ms: number; pages: number }> {
  const client = clientFromConfig(config);
  const started = performance.now();
  const request = (page: number) =>
    client.listListings({ SerialNumber: chatbot, PageNumber: page, PageSize: config.api.pageSize });
  const first = await request(1);
  const pages = Math.ceil((first.VirtualCount ?? 0) / config.api.pageSize);
  const limit = pLimit(config.api.concurrency);
  await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => limit(() => request(i + 2))));
  return { ms: performance.now() - started, pages };
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      listings: { type: 'string', default: '10000' },
      latency: { type: 'string', default: '50' },
      'page-size': { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '5' },
      /** Write a CPU profile of the no-op syncs alone (not the setup) to this file. */
      profile: { type: 'string' },
    },
  });
  const count = Number(values.listings);
  const latencyMs = Number(values.latency);
  const sandbox = await startSandboxProcess();
  try {
    const config = configSchema.parse({
      api: { baseUrl: sandbox.url, concurrency: 8, pageSize: Number(values['page-size']) },
      feeds: [
        {
          id: 'bench',
          chatbot: 'NOOP',
          source: { format: 'csv', path: 'unused.csv' },
          mapping: LISTING_MAPPING,
        },
      ],
    });
    const listings = initialFeed(count);
    await sandbox.seed(
      'NOOP',
      listings.map((l) => withTags(l, 'bench', TAGS)),
    );
    await sandbox.configure({ latencyMs });
    out(
      `noop bench: ${count} unchanged listings, ${latencyMs} ms latency, concurrency 8, PageSize ${config.api.pageSize} (${machine()})`,
    );
    out(`pages = reading every page as the snapshot does, keeping nothing; goal: no-op ≤ ${GOAL}× pages\n`);
    const rows: string[][] = [];
    const ratios: number[] = [];
    const profiler = values.profile ? await startProfile() : undefined;
    for (let round = 1; round <= Number(values.rounds); round++) {
      const pages = await readPages(config, 'NOOP');
      await profiler?.post('Profiler.start');
      const noop = await sync(config, listings);
      await profiler?.post('Profiler.stop').then((r) => profiles.push(r.profile));
      const r = noop.report;
      if (r.created + r.updated + r.deleted !== 0 || r.unchanged !== count)
        throw new Error(`not a no-op: ${JSON.stringify({ ...r, rejections: undefined })}`);
      ratios.push(noop.ms / pages.ms);
      rows.push([String(round), `${pages.pages}`, fmtMs(pages.ms), fmtMs(noop.ms), ratio(noop.ms, pages.ms)]);
    }
    printTable(['round', 'pages', 'read pages', 'no-op sync', 'ratio'], rows);
    // Rounds alternate the two measurements, so a busy neighbour slows both alike; the median
    // ratio is the figure.
    const median = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)] ?? Number.NaN;
    out(`\nmedian ratio: ${median.toFixed(2)}× (goal ≤ ${GOAL}×: ${median <= GOAL ? 'met' : 'NOT met'})`);
    if (values.profile && profiles.at(-1)) {
      writeFileSync(values.profile, JSON.stringify(profiles.at(-1)));
      out(`\nCPU profile of the last no-op sync: ${values.profile} (open in Chrome DevTools)`);
    }
  } finally {
    await sandbox.close();
  }
}
