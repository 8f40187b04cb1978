import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseConfig } from '../../src/config/load.ts';

const ROOT = process.cwd();
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the Docker quick start, as the README writes it', () => {
  const section =
    /### Quick start with Docker\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(read('README.md'))?.[1] ?? '';

  it('copies files that exist, to where compose mounts and reads them', () => {
    const copies = [...section.matchAll(/^cp (\S+) (\S+)/gm)].map((m) => [m[1], m[2]]);
    expect(copies).toEqual([
      ['.env.example', '.env'],
      ['config/feed-sync.example.yaml', 'config/feed-sync.yaml'],
    ]);
    for (const [from] of copies) expect(existsSync(join(ROOT, from ?? ''))).toBe(true);
    const compose = parseYaml(read('docker-compose.yml'));
    expect(compose.services.worker.env_file).toBe('.env');
    expect(compose.services.worker.volumes).toContain('./config:/config:ro');
    expect(compose.services.worker.environment.FEED_SYNC_CONFIG).toBe('/config/feed-sync.yaml');
    expect(section).toContain('docker compose up -d');
  });

  it('the example config loads with the keys .env gives it', () => {
    const config = parseConfig(read('config/feed-sync.example.yaml'), {
      env: { CHATBOT_SECRET_KEY: 'sk', CHATBOT_SESSION_KEY: '' },
    });
    expect(config.api.secretKey).toBe('sk');
    // .env as copied, the key not filled in: the loader refuses it, naming the key.
    expect(() =>
      parseConfig(read('config/feed-sync.example.yaml'), { env: { CHATBOT_SECRET_KEY: '' } }),
    ).toThrow(/api\.secretKey: is empty/);
    expect(config.feeds.map((f) => [f.id, f.chatbot])).toEqual([['my-mls', config.chatbots[0]?.chatbot]]);
    expect(config.worker.historyRuns).toBe(50);
  });

  it('scales: `docker compose up --scale worker=3` (no fixed port or name on the worker), one dashboard', () => {
    const compose = parseYaml(read('docker-compose.yml'));
    const { worker, dashboard } = compose.services;
    // A published host port or a container_name makes a second replica fail to start.
    expect(worker.ports).toBeUndefined();
    expect(worker.container_name).toBeUndefined();
    expect(worker.environment.UI_PORT).toBeUndefined();
    // The worker runs the image's CMD (`worker`); the dashboard `feed-sync ui`, on the same image and store.
    expect(worker.command).toBeUndefined();
    expect(read('Dockerfile')).toMatch(/^CMD \["worker"\]$/m);
    expect(dashboard.command).toEqual(['ui']);
    expect(dashboard.image).toBe(worker.image);
    expect(dashboard.environment.REDIS_URL).toBe(worker.environment.REDIS_URL);
    expect(dashboard.environment.FEED_SYNC_CONFIG).toBe(worker.environment.FEED_SYNC_CONFIG);
    expect(dashboard.ports).toEqual(['127.0.0.1:3000:3000']);
    expect(dashboard.container_name).toBeUndefined();
    // The image's health check is a worker's heartbeat: the dashboard, which runs none, has its own.
    expect(dashboard.healthcheck.test.join(' ')).toContain('http://127.0.0.1:3000/healthz');
    expect(read('README.md')).toContain('docker compose up -d --scale worker=3');
  });

  it('Redis keeps every key: append-only, a memory ceiling and noeviction', () => {
    const command: string[] = parseYaml(read('docker-compose.yml')).services.redis.command;
    const option = (name: string) => command[command.indexOf(name) + 1];
    expect(option('--appendonly')).toBe('yes');
    expect(option('--maxmemory')).toMatch(/^\d+(mb|gb)$/);
    expect(option('--maxmemory-policy')).toBe('noeviction');
  });

  it('the runtime image: production dependencies only, non-root, an init, a health check without the UI', () => {
    const dockerfile = read('Dockerfile');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).not.toMatch(/npm (ci|install)/);
    expect(runtime).toContain('COPY --from=deps /app/node_modules ./node_modules');
    expect(dockerfile).toMatch(/FROM node:24-slim AS deps\n[\s\S]*npm ci --omit=dev/);
    // The build does not run the `node` devDependency's install script (a second Node download).
    expect(dockerfile).toMatch(/AS build\n[\s\S]*npm ci --ignore-scripts/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/ENTRYPOINT \["\/usr\/bin\/tini", "--"/);
    expect(runtime).toMatch(/HEALTHCHECK [\s\S]*CMD \["node", "dist\/src\/cli\/main\.js", "healthcheck"\]/);
    expect(runtime).not.toMatch(/UI_PORT/);
  });
});
