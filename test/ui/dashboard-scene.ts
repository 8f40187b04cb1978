import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { clientFromConfig } from '../../src/api/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { Config } from '../../src/config/schema.ts';
import { silentLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import { syncFeed } from '../../src/reconcile/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { startUi, type UiServer } from '../../src/ui/index.ts';
import { FIXTURE_CONFIG } from '../helpers/fixture-feeds.ts';
import { REDIS_URL, testPrefix } from '../helpers/services.ts';
import { cleanupPrefix, waitFor } from '../worker/helpers.ts';

export const USER = 'operator';
export const PASSWORD = 'dashboard-test-password';

/** Schedules of a few fixture feeds, in several time zones, as a real config has them. */
const SCHEDULES: Record<string, { cron: string; timezone: string }> = {
  acme: { cron: '0 */2 * * *', timezone: 'America/New_York' },
  'euro-1252': { cron: '30 6 * * *', timezone: 'Europe/Berlin' },
  reaxml: { cron: '15 * * * *', timezone: 'Australia/Sydney' },
  kyero: { cron: '0 7 * * 1-5', timezone: 'Europe/Madrid' },
  reso: { cron: '*/30 * * * *', timezone: 'America/Chicago' },
};

/** A feed whose host does not answer: its runs fail, and the dashboard shows it. */
export const BROKEN_FEED = {
  id: 'coastal-mls',
  chatbot: 'COASTAL',
  schedule: { cron: '0 * * * *', timezone: 'America/Los_Angeles' },
  source: { format: 'csv', url: 'http://127.0.0.1:9/exports/coastal-mls.csv' },
};

/**
 * The dashboard as an operator meets it: the fixture feeds (fixtures/feeds/feed-sync.yaml) with
 * schedules, a chatbot with settings, the real worker and sync on Redis against the sandbox, and
 * the UI with credentials. Used by the browser test and by the screenshot script.
 */
export interface DashboardScene {
  sandbox: Sandbox;
  service: WorkerService;
  ui: UiServer;
  config: Config;
  /** Queue a run and wait for its report in the state store. */
  runFeed(feedId: string): Promise<void>;
  /** Change one field of a feed's listing on the platform, as someone editing it by hand would. */
  editOnPlatform(key: string, patch: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startDashboardScene(
  extraFeeds: Record<string, unknown>[] = [],
): Promise<DashboardScene> {
  const sandbox = await startSandbox();
  const raw = parseYaml(readFileSync(FIXTURE_CONFIG, 'utf8'));
  raw.api = { ...raw.api, baseUrl: sandbox.url };
  for (const feed of raw.feeds) if (SCHEDULES[feed.id]) feed.schedule = SCHEDULES[feed.id];
  raw.feeds.push(...extraFeeds);
  raw.chatbots = [
    {
      chatbot: 'FIXTURES',
      settings: { Name: 'Fixture Realty Assistant', ChatBubbleColor: 'rgb(0,102,204)' },
    },
  ];
  const config = parseConfig(stringify(raw), { source: FIXTURE_CONFIG, baseDir: dirname(FIXTURE_CONFIG) });
  const prefix = testPrefix();
  const service = await startWorkerService({
    config,
    store: { kind: 'redis', url: REDIS_URL },
    prefix,
    logger: silentLogger,
    sync: syncFeed,
    settings: { attempts: 1 },
    // The schedules are shown, never fired: a cron coming due mid-test would add a run of its own.
    schedules: false,
  });
  const env = { UI_HOST: '127.0.0.1', UI_PORT: 0, UI_USER: USER, UI_PASSWORD: PASSWORD };
  const ui = await startUi({ service, env, logger: silentLogger });
  const client = clientFromConfig(config);

  return {
    sandbox,
    service,
    ui,
    config,
    async runFeed(feedId) {
      const before = ((await service.state.getFeed(feedId)).lastReport as { startedAt?: string })?.startedAt;
      await enqueueFeedSync(service.queue, { feedId, trigger: 'schedule', forceFull: true });
      await waitFor(
        async () => {
          const last = (await service.state.getFeed(feedId)).lastReport as {
            startedAt?: string;
            trigger?: string;
          };
          // The job records the run again with its trigger once it ends.
          return last?.startedAt !== before && last?.trigger === 'schedule';
        },
        20_000,
        `a run of ${feedId}`,
      );
    },
    async editOnPlatform(key, patch) {
      const listing = sandbox.listings('FIXTURES').find((l) => l.MLSNumber === key);
      if (!listing) throw new Error(`no listing ${key} on the sandbox`);
      const { ID, SerialNumber, ...rest } = listing;
      await client.updateListing({
        ...rest,
        ...patch,
        SerialNumber,
        Key: String(ID),
        KeyType: 'NewOaks',
      } as Parameters<typeof client.updateListing>[0]);
    },
    async close() {
      await ui.close();
      await service.close();
      await sandbox.close();
      await cleanupPrefix(prefix);
    },
  };
}
