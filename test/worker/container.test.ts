import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
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
    await run(
      join(ROOT, 'node_modules/.bin/tsc'),
      ['-p', 'tsconfig.build.json', '--outDir', join(app, 'dist')],
      { cwd: ROOT },
    ).catch(() => {});
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
    };
  }

  describe.skipIf(!redisAvailable)('the image, run without Docker', () => {
    it('serves /healthz, runs the scheduled sync, exits 0 on SIGTERM', async (context) => {
      // Under CI a folder the image's steps cannot build is the failure this test is for.
      if (prepared && process.env.CI) throw new Error(`cannot prepare the image folder: ${prepared}`);
      if (prepared) context.skip(`cannot prepare the image folder: ${prepared}`);
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      const env = await composeEnvironment(port);
      const child: ChildProcess = spawn(NODE, ['dist/src/cli/main.js', 'worker'], {
        cwd: app,
        env: { PATH: process.env.PATH ?? '', HOME: dir, NODE_ENV: 'production', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk) => {
        stderr += String(chunk);
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        const health = await waitFor(
          async () => {
            if (child.exitCode !== null) throw new Error(`the worker exited: ${stderr}`);
            const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
            return response?.ok ? response.json() : undefined;
          },
          20_000,
          '/healthz',
        );
        expect(health).toEqual({ ok: true, store: true, worker: true, missingSchedulers: [] });
        const redis = new Redis(REDIS_URL);
        try {
          const report = await waitFor(
            async () =>
              JSON.parse((await redis.hget('{feed-sync}:state:feed:harbor-homes', 'lastReport')) ?? 'null'),
            20_000,
            'the scheduled run',
          );
          expect(report).toMatchObject({ feedId: 'harbor-homes', outcome: 'ok' });
        } finally {
          redis.disconnect();
        }
        expect(sandbox.listings('DEMO-CHATBOT').length).toBeGreaterThan(10);
      } finally {
        child.kill('SIGTERM');
      }
      const started = Date.now();
      expect(await exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(stderr).not.toMatch(/"level":(50|60)/);
    }, 90_000);
  });
});
