import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { EXAMPLE_UI_PASSWORD } from '../../src/cli/worker-preflight.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { imageEntrypointFlags, imageMallocEnv, imageNodeOptions } from '../helpers/image-env.ts';
import { redisAvailable } from '../helpers/services.ts';
import { waitFor } from './helpers.ts';

/**
 * What the image runs, without Docker: build dist/ as the Dockerfile does, install production
 * dependencies only into a fresh folder, start the entrypoint with the compose file's environment
 * against the sandbox and the local Redis, then check /healthz, a scheduled run and a clean SIGTERM.
 */
const run = promisify(execFile);
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
// A database of its own, so the default `{feed-sync}` prefix of the image cannot meet other tests.
const REDIS_URL = 'redis://127.0.0.1:6379/9';

let dir: string;
let app: string;
let sandbox: Sandbox;
let prepared: string | undefined;

async function clearPrefix() {
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys('{feed-sync}*');
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}

describe.skipIf(!redisAvailable)('the container', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-sync-image-'));
    app = join(dir, 'app');
    await mkdir(app);
    await run(NODE, ['scripts/build.mjs', '--out', join(app, 'dist')], { cwd: ROOT }).catch(() => {});
    if (!existsSync(join(app, 'dist/src/cli/main.js'))) {
      prepared = 'the build did not produce dist/src/cli/main.js';
      return;
    }
    for (const file of ['package.json', 'package-lock.json'])
      await copyFile(join(ROOT, file), join(app, file));
    try {
      await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: app,
        timeout: 120_000,
      });
    } catch (error) {
      prepared = `npm ci --omit=dev failed: ${(error as Error).message.split('\n')[0]}`;
      return;
    }
    sandbox = await startSandbox();
    await mkdir(join(dir, 'config'));
    for (const file of ['harbor-homes.csv', 'city-rentals.csv'])
      await copyFile(join(ROOT, 'fixtures/demo', file), join(dir, 'config', file));
    const config = parseYaml(await readFile(join(ROOT, 'fixtures/demo/feed-sync.yaml'), 'utf8'));
    config.api.baseUrl = sandbox.url;
    config.feeds[0].schedule = { cron: '* * * * * *', timezone: 'UTC' };
    config.feeds = [config.feeds[0]];
    await writeFile(join(dir, 'config/feed-sync.yaml'), stringify(config));
    await clearPrefix();
  }, 180_000);

  afterAll(async () => {
    await sandbox?.close();
    await clearPrefix().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });

  /** The worker service's environment from docker-compose.yml and .env.example, pointed at this machine. */
  async function composeEnvironment(port: number): Promise<Record<string, string>> {
    const compose = parseYaml(await readFile(join(ROOT, 'docker-compose.yml'), 'utf8'));
    const env: Record<string, string> = {};
    for (const line of (await readFile(join(ROOT, '.env.example'), 'utf8')).split('\n')) {
      const match = /^([A-Z_]+)=(.*)$/.exec(line);
      if (match) env[match[1]!] = match[2]!;
    }
    Object.assign(env, compose.services.worker.environment);
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(env.FEED_SYNC_CONFIG).toBe('/config/feed-sync.yaml');
    // What the container has and this machine does not: the `redis` host and the /config mount.
    return {
      ...env,
      REDIS_URL,
      FEED_SYNC_CONFIG: join(dir, 'config/feed-sync.yaml'),
      // What .env.example tells the user to do: set a password of their own (the example is refused).
      UI_PASSWORD: 'a-password-of-our-own',
      UI_PORT: String(port),
      LOG_LEVEL: 'info',
      // The worker's heartbeat file goes to the temp folder: this test's own.
      TMPDIR: dir,
    };
  }

  /** What the quick start asks of a user: .env with a password of their own and the platform key. */
  const configured = { UI_PASSWORD: 'a-password-of-our-own', CHATBOT_SECRET_KEY: 'sk-container-test' };

  function startImage(env: Record<string, string>, args = ['worker']) {
    const child: ChildProcess = spawn(NODE, [...imageEntrypointFlags(), 'dist/src/cli/main.js', ...args], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        NODE_ENV: 'production',
        // The image's heap bound: the worker must run under it; and its allocator settings.
        NODE_OPTIONS: imageNodeOptions(),
        ...imageMallocEnv(),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, stderr: () => stderr, stdout: () => stdout };
  }

  describe.skipIf(!redisAvailable)('the image, run without Docker', () => {
    it('on a Node older than 24 (the machine’s /usr/bin/node) says so and exits 1, never nothing and 0', async (context) => {
      if (prepared && process.env.CI) throw new Error(`cannot prepare the image folder: ${prepared}`);
      if (prepared) context.skip(`cannot prepare the image folder: ${prepared}`);
      const old = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path));
      const version = old ? (await run(old, ['--version'])).stdout.trim() : '';
      if (!old || Number(version.slice(1).split('.')[0]) >= 24)
        context.skip('no Node older than 24 on this machine');
      const answer = await run(old!, ['dist/src/cli/main.js', 'healthcheck'], { cwd: app }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(answer).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('feed-sync needs Node 24 or newer'),
      });
    });

    it('refuses to start with the example UI password, or without the platform key, in one line', async (context) => {
      if (prepared && process.env.CI) throw new Error(`cannot prepare the image folder: ${prepared}`);
      if (prepared) context.skip(`cannot prepare the image folder: ${prepared}`);
      const env = await composeEnvironment(0);
      // .env copied from .env.example and not edited.
      const example = startImage({ ...env, UI_PASSWORD: EXAMPLE_UI_PASSWORD });
      expect(await example.exited).toBe(2);
      expect(example.stderr()).toMatch(
        /^feed-sync: refusing to start: UI_PASSWORD is still the example from \.env\.example .*\n$/,
      );
      // A password set, the key left empty, and the real platform in the config.
      const remote = join(dir, 'config/remote.yaml');
      const config = parseYaml(await readFile(join(dir, 'config/feed-sync.yaml'), 'utf8'));
      await writeFile(
        remote,
        stringify({ ...config, api: { ...config.api, baseUrl: 'https://usapi.example' } }),
      );
      const noKey = startImage({ ...env, UI_PASSWORD: configured.UI_PASSWORD, FEED_SYNC_CONFIG: remote });
      expect(await noKey.exited).toBe(2);
      // Refused when the config loads (issue 22), before the worker's own preflight.
      expect(noKey.stderr()).toMatch(
        /^feed-sync: invalid config: \S*remote\.yaml:\d+:\d+: api: neither api\.secretKey nor api\.sessionKey is set, so every request to usapi\.example would be refused; [^\n]*\n$/,
      );
    }, 30_000);

    it('as `docker compose up --scale worker=3` runs it: three workers each healthy in its container, one dashboard', async (context) => {
      if (prepared && process.env.CI) throw new Error(`cannot prepare the image folder: ${prepared}`);
      if (prepared) context.skip(`cannot prepare the image folder: ${prepared}`);
      const compose = parseYaml(await readFile(join(ROOT, 'docker-compose.yml'), 'utf8'));
      const all: Record<string, string> = { ...(await composeEnvironment(0)), ...configured };
      const { UI_PORT: _ui, ...workerEnv } = all;
      // Each replica is a container of its own: its own /tmp, where its heartbeat goes.
      const replicas = await Promise.all(
        [1, 2, 3].map(async (i) => {
          const tmp = join(dir, `replica-${i}`);
          await mkdir(tmp, { recursive: true });
          return { tmp, worker: startImage({ ...workerEnv, TMPDIR: tmp }) };
        }),
      );
      // The dashboard service: the image with `command: ["ui"]` and its own environment.
      const dashboardEnv = {
        ...workerEnv,
        ...compose.services.dashboard.environment,
        REDIS_URL,
        FEED_SYNC_CONFIG: join(dir, 'config/feed-sync.yaml'),
        UI_PORT: '0',
        TMPDIR: join(dir, 'dashboard'),
      };
      const dashboard = startImage(dashboardEnv, compose.services.dashboard.command);
      try {
        for (const { tmp, worker } of replicas) {
          await waitFor(
            async () => {
              if (worker.child.exitCode !== null) throw new Error(`a worker exited: ${worker.stderr()}`);
              const check = startImage({ ...workerEnv, TMPDIR: tmp }, ['healthcheck']);
              return (await check.exited) === 0;
            },
            30_000,
            'each replica healthy',
          );
        }
        const url = await waitFor(
          () => {
            if (dashboard.child.exitCode !== null)
              throw new Error(`the dashboard exited: ${dashboard.stderr()}`);
            return /queue UI on (\S+)/.exec(dashboard.stderr())?.[1];
          },
          20_000,
          'the dashboard',
        );
        // The dashboard's own health check, as compose runs it, on this port.
        const [, , flag, script] = compose.services.dashboard.healthcheck.test as string[];
        const health = await run(NODE, [
          flag!,
          script!.replace('http://127.0.0.1:3000', url.replace(/\/$/, '')),
        ]).then(
          () => 0,
          (error: { code: number }) => error.code,
        );
        expect(health).toBe(0);
      } finally {
        for (const { worker } of replicas) worker.child.kill('SIGTERM');
        dashboard.child.kill('SIGTERM');
      }
      expect(await Promise.all(replicas.map(({ worker }) => worker.exited))).toEqual([0, 0, 0]);
      for (const { worker } of replicas) expect(worker.stderr()).not.toMatch(/"level":(50|60)/);
    }, 90_000);

    it('with the dashboard off: healthy by its health check, runs the scheduled sync, exits 0 on SIGTERM', async (context) => {
      // Under CI a folder the image's steps cannot build is the failure this test is for.
      if (prepared && process.env.CI) throw new Error(`cannot prepare the image folder: ${prepared}`);
      if (prepared) context.skip(`cannot prepare the image folder: ${prepared}`);
      const all: Record<string, string> = { ...(await composeEnvironment(0)), ...configured };
      const { UI_PORT: _ui, ...env } = all;
      const worker = startImage(env);
      const { child, exited } = worker;
      const healthcheck = async () => {
        const check = startImage(env, ['healthcheck']);
        return { code: await check.exited, stdout: check.stdout(), stderr: check.stderr() };
      };
      try {
        const health = await waitFor(
          async () => {
            if (child.exitCode !== null) throw new Error(`the worker exited: ${worker.stderr()}`);
            const result = await healthcheck();
            return result.code === 0 ? result : undefined;
          },
          20_000,
          'the health check',
        );
        expect(health).toEqual({ code: 0, stdout: 'healthy\n', stderr: '' });
        const redis = new Redis(REDIS_URL);
        try {
          // The feed's run history: the first scheduled run synced it; the ticks after it find the
          // file unchanged and skip it.
          const history = await waitFor(
            async () => {
              const runs = await redis.lrange('{feed-sync}:state:runs:harbor-homes', 0, -1);
              return runs.length
                ? runs.map((r) => JSON.parse(r) as { feedId: string; outcome: string })
                : undefined;
            },
            20_000,
            'the scheduled run',
          );
          expect(history.at(-1)).toMatchObject({
            feedId: 'harbor-homes',
            outcome: 'ok',
            trigger: 'schedule',
          });
          for (const run of history.slice(0, -1)) expect(['ok', 'skipped']).toContain(run.outcome);
        } finally {
          redis.disconnect();
        }
        expect(sandbox.listings('DEMO-CHATBOT').length).toBeGreaterThan(10);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      expect(worker.stderr()).not.toMatch(/"level":(50|60)/);
      // A stopped worker is unhealthy: its heartbeat is gone.
      const after = await healthcheck();
      expect(after.code).toBe(1);
      expect(after.stderr).toMatch(/^feed-sync: no heartbeat in .*: no worker is running\n$/);
    }, 90_000);
  });
});
