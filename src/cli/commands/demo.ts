import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { clientFromConfig } from '../../api/index.ts';
import type { Config } from '../../config/index.ts';
import { silentLogger } from '../../logger.ts';
import type { Listing } from '../../normalize/index.ts';
import { planRun, type RunFeed, type RunReport, runAndSave, syncFeed } from '../../reconcile/index.ts';
import { renderPlan, renderReport } from '../../render/index.ts';
import type { Sandbox } from '../../sandbox/index.ts';
import { createFileStateStore } from '../../state/index.ts';
import { CliExit, cliMemo, withExamples } from '../context.ts';
import { loadDemoConfig, useNextDayFeed } from '../demo-config.ts';
import { EXIT, exitCodeOf } from '../exit-codes.ts';

/** A listing someone added by hand in the platform's UI: no feed owns it, so no run may touch it. */
const HAND_ADDED: Listing = {
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Land',
  Bedrooms: 0,
  Bathrooms: 0,
  Url: 'https://example.com/hand-added/lot-7',
  MLSNumber: 'HAND-7',
  YearBuilt: 2024,
  DaysOnMarket: 30,
  LotArea: 20000,
  BuildingArea: 0,
  AreaUnit: 'Square Feet',
  ParkingSpots: 0,
  Description: 'Building lot, added by hand by the agency',
};

interface Demo {
  config: Config;
  sandbox: Sandbox;
  dir: string;
  out: (text: string) => void;
}

async function runAll(demo: Demo, title: string, options: { forceFull?: boolean; showPlans?: boolean } = {}) {
  demo.out(`\n── ${title} ${'─'.repeat(Math.max(0, 72 - title.length))}`);
  const deps = {
    client: clientFromConfig(demo.config),
    state: createFileStateStore(demo.config.stateFile),
    logger: silentLogger,
    memo: cliMemo(demo.config.stateFile, silentLogger),
  };
  // The plan first, when asked for, then the run that applies it: what `plan` then `sync` would show.
  const showing: RunFeed = async (config, feed, runDeps, runOptions) => {
    const run = await planRun(config, feed, runDeps, runOptions);
    if (run.prepared.kind === 'planned') demo.out(`${renderPlan(run.prepared.plan)}\n`);
    return run.finish();
  };
  const reports: RunReport[] = [];
  for (const feed of demo.config.feeds) {
    const runOptions = { forceFull: options.forceFull ?? false };
    const run = options.showPlans ? showing : syncFeed;
    const { report } = await runAndSave(demo.config, feed, deps, runOptions, run);
    reports.push(report);
    demo.out(renderReport(report));
  }
  const serial = demo.config.feeds[0]?.chatbot ?? '';
  demo.out(`chatbot ${serial} now holds ${demo.sandbox.listings(serial).length} listings`);
  return reports;
}

const writesOf = (reports: RunReport[]) =>
  reports.reduce((n, r) => n + r.apiCalls.create + r.apiCalls.update + r.apiCalls.delete, 0);

/**
 * The README's first command: the real pipeline against an in-process sandbox, on a temp copy of
 * fixtures/demo. Three runs: the first sync, a next-day feed, and a run that changes nothing.
 */
export async function runDemo(
  out: (text: string) => void = (t) => process.stdout.write(`${t}\n`),
): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'feed-sync-demo-'));
  const { startSandbox } = await import('../../sandbox/index.ts');
  const sandbox = await startSandbox({ latencyMs: 20 });
  try {
    const config = await loadDemoConfig(dir, sandbox.url);
    const demo: Demo = { config, sandbox, dir, out };
    const serial = config.feeds[0]?.chatbot ?? '';
    sandbox.seed(serial, [HAND_ADDED]);
    out(`feed-sync demo: a local sandbox at ${sandbox.url} (20 ms per request), no credentials, no Redis.`);
    out(
      `Feeds ${config.feeds.map((f) => f.id).join(' and ')} both go to chatbot ${serial}, which already holds`,
    );
    out('one listing added by hand (HAND-7): no feed owns it, so no run may touch it. Each feed counts');
    out("the listings it does not own (the other feed's and HAND-7) as `foreign`, and leaves them alone.");
    out('harbor-homes.csv also holds a row typed by hand with a bad value (HH-2499): each run rejects');
    out('it, naming the row and the field, and syncs the rest.');

    const first = await runAll(demo, 'Run 1: the first sync');
    await useNextDayFeed(dir);
    out('\nNext morning, harbor-homes.csv has changed: HH-2402 and HH-2407 cut their price, HH-2404 sold,');
    out('HH-2410 is gone from the feed and HH-2413 is new. The plan, then the run:');
    const second = await runAll(demo, 'Run 2: the next-day feed', { showPlans: true });
    const third = await runAll(demo, 'Run 3: the same feeds again (full compare)', { forceFull: true });
    const lists = third.reduce((n, r) => n + r.apiCalls.list, 0);
    out(
      `\nRun 3 made ${writesOf(third)} writes and ${lists} list calls: the chatbot already equals its feeds.`,
    );
    // The bad row is rejected on purpose: a partial run (exit code 4) is what the demo expects.
    const codes = [first, second, third].map((r) => exitCodeOf(r)).filter((c) => c !== EXIT.partial);
    return Math.max(...codes, writesOf(third) > 0 ? 1 : 0);
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function registerDemo(program: Command): void {
  withExamples(program.command('demo'), ['feed-sync demo'])
    .description(
      'run the whole sync against a local sandbox with bundled feeds: first sync, next-day feed, no-op',
    )
    .action(async () => {
      const code = await runDemo();
      if (code !== 0) throw new CliExit('the demo did not converge (see above)', code);
    });
}
