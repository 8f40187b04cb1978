import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService, type WorkerService } from '../../jobs/worker-service.ts';
import { loadConfig } from '../../src/config/load.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import { reloadOnChange } from '../../src/schedule/config-watch.ts';
import { capturedLogger } from '../helpers/captured-logger.ts';
import { BACKENDS } from './backends.ts';
import { fakeRun, waitFor } from './helpers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Save the config as editors and ConfigMaps do, by replacing the file. A save that truncates and then
 * writes can be read half-written: the watcher drops a load during which the file changed again,
 * but a writer that stalls longer than the debounce (a loaded machine) can still be read mid-save.
 */
async function save(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

/** The config file of two feeds, each with its own mapping of the listing URL. */
function configText(urls: { a: string; b: string }, extra = ''): string {
  const feed = (id: string, url: string) =>
    [
      `  - id: ${id}`,
      '    chatbot: BOT1',
      `    source: { format: csv, path: ${id}.csv }`,
      '    schedule: { cron: "0 3 * * *" }',
      `    mapping: { fields: { MLSNumber: MLS, Url: ${url} } }`,
    ].join('\n');
  return [
    'api: { baseUrl: "http://127.0.0.1:9" }',
    'feeds:',
    feed('a', urls.a),
    feed('b', urls.b),
    extra,
  ].join('\n');
}

/** The runs queued, not the schedulers' next ticks (delayed jobs of their own): feed and trigger. */
async function pending(service: WorkerService): Promise<string[]> {
  const jobs = await service.queue.getJobs(['waiting', 'prioritized', 'delayed', 'active']);
  return jobs
    .filter((job) => job.name === 'sync-feed' && !job.repeatJobKey)
    .map((job) => {
      const data = job.data as { feedId: string; trigger?: string };
      return `${data.feedId} ${data.trigger}`;
    })
    .sort();
}

describe.each(BACKENDS)('a config change on $name', (backend) => {
  /** A worker that takes no job (so the queued ones stay to be looked at), watching its config file. */
  async function start(text: string) {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-config-runs-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'feed-sync.yaml');
    await save(file, text);
    const { logger, lines } = capturedLogger();
    const { store, prefix, cleanup } = await backend.fresh();
    cleanups.push(cleanup);
    const service = await startWorkerService({
      config: await loadConfig(file),
      store,
      prefix,
      logger,
      sync: async (_c, feed) => fakeRun(feed.id),
      process: false,
    });
    cleanups.push(() => service.close());
    const stop = reloadOnChange(file, service, logger, { debounceMs: 30 });
    cleanups.push(async () => stop());
    return { file, service, lines };
  }

  it.skipIf(!backend.available)(
    'queues one run with trigger config for exactly the feed whose mapping changed; a broken file queues none',
    async () => {
      const { file, service, lines } = await start(configText({ a: 'Link', b: 'Link' }));
      expect(await pending(service)).toEqual([]);

      // Broken (a typo), though it changes a's mapping too: refused, nothing queued, the reason logged.
      await save(file, configText({ a: 'Permalink', b: 'Link' }, 'wokrer: {}'));
      await waitFor(() => lines.some((l) => l.includes('config change refused')), 5000, 'the refusal');
      expect(lines.find((l) => l.includes('config change refused'))).toContain(
        'wokrer: unknown key; did you mean worker?',
      );
      expect(await pending(service)).toEqual([]);
      expect(service.config().feeds[0]?.mapping.fields?.Url).toBe('Link');
      // The dashboard says it too (a tester saw "all healthy" beside a refused change).
      expect(service.configRefused?.()).toMatchObject({
        file,
        issues: [expect.stringContaining('wokrer: unknown key; did you mean worker?')],
      });
      // Saved again as it was (an editor's second write): refused once, not logged twice (a tester).
      await save(file, configText({ a: 'Permalink', b: 'Link' }, 'wokrer: {}'));
      await new Promise((done) => setTimeout(done, 400));
      expect(lines.filter((l) => l.includes('config change refused'))).toHaveLength(1);
      // The typo undone, the file as it runs: the refusal is no longer said (a reviewer).
      await save(file, configText({ a: 'Link', b: 'Link' }));
      await waitFor(() => service.configRefused?.() === undefined, 5000, 'the refusal cleared');
      await save(file, configText({ a: 'Permalink', b: 'Link' }, 'wokrer: {}'));
      await waitFor(() => service.configRefused?.() !== undefined, 5000, 'the refusal again');

      await save(file, configText({ a: 'Permalink', b: 'Link' }));
      await waitFor(async () => (await pending(service)).length > 0, 5000, 'the run of a');
      await waitFor(() => lines.some((l) => l.includes('config reloaded and applied')), 5000, 'the reload');
      expect(service.configRefused?.()).toBeUndefined();
      expect(await pending(service)).toEqual(['a config']);
      const queued = lines.find((l) => l.includes('queued with trigger config'));
      expect(JSON.parse(queued ?? '{}')).toMatchObject({ runs: ['a (mapping changed)'] });
    },
  );

  it.skipIf(!backend.available)(
    'a scheduled run already waiting for the changed feed becomes the config run: one run, that may not skip',
    async () => {
      const { file, service } = await start(configText({ a: 'Link', b: 'Link' }));
      // A tick that came while every worker was busy: waiting, deduplicated, trigger schedule.
      const waiting = await enqueueFeedSync(service.queue, { feedId: 'b', trigger: 'schedule' });
      expect(await pending(service)).toEqual(['b schedule']);
      await save(file, configText({ a: 'Link', b: 'Permalink' }));
      await waitFor(async () => (await pending(service)).includes('b config'), 5000, 'the config run of b');
      expect(await pending(service)).toEqual(['b config']);
      const [job] = await service.queue.getJobs(['waiting', 'prioritized']);
      expect(job?.id).toBe(waiting);
    },
  );
});
