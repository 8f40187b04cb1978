import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_PREFIX } from '../../src/queue/names.ts';
import { openQueueStore } from '../../src/queue/open-store.ts';
import type { StoreChoice } from '../../src/queue/store.ts';
import { namespaceOf } from '../../src/state/postgres-schema.ts';
import { DATABASE_URL, postgresAvailable, redisAvailable } from '../helpers/services.ts';
import { cleanupPrefix, REDIS_URL, uniquePrefix } from './helpers.ts';

/**
 * The worker's stores, for tests that must hold on every backend: Redis, the embedded PGlite, and a
 * real Postgres (DATABASE_URL, or the one on 127.0.0.1:5432 that CI machines have; required under CI).
 */
export interface TestBackend {
  name: 'redis' | 'embedded' | 'postgres';
  available: boolean;
  /** Several services (processes) may share one store. */
  shared: boolean;
  /** A store of its own for one test, and how to remove it afterwards. */
  fresh(): Promise<TestStore>;
}

export interface TestStore {
  store: StoreChoice;
  prefix: string;
  cleanup(): Promise<void>;
}

export { DATABASE_URL };

/**
 * A new PGlite folder costs seconds (initdb in WebAssembly, then the migrations), so one is made
 * per machine and version of the migrations, and copied for each test. Built beside its final name
 * and renamed, so test files running in parallel never see half a template.
 */
let template: Promise<string> | undefined;
function embeddedTemplate(): Promise<string> {
  template ??= (async () => {
    const { version } = JSON.parse(
      await readFile(
        new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
        'utf8',
      ),
    ) as { version: string };
    // Keyed by the migrations it holds: branches with other migration steps never share one.
    const migrations = createHash('sha256')
      .update(await readFile(new URL('../../src/state/postgres-schema.ts', import.meta.url)))
      .digest('hex')
      .slice(0, 12);
    const final = join(tmpdir(), `feed-sync-pglite-template-${version}-${migrations}`);
    if (await stat(join(final, 'pgdata')).catch(() => undefined)) return final;
    const building = `${final}.${process.pid}.${randomUUID().slice(0, 6)}`;
    await mkdir(building, { recursive: true });
    const store = await openQueueStore({ kind: 'embedded', dir: building }, DEFAULT_PREFIX);
    const queue = store.createQueue();
    await queue.waitUntilReady();
    await queue.close();
    await store.close();
    await rm(join(building, 'lock'), { force: true });
    await rename(building, final).catch(() => rm(building, { recursive: true, force: true }));
    return final;
  })();
  return template;
}

const redis: TestBackend = {
  name: 'redis',
  available: redisAvailable,
  shared: true,
  async fresh() {
    const prefix = uniquePrefix();
    return { store: { kind: 'redis', url: REDIS_URL }, prefix, cleanup: () => cleanupPrefix(prefix) };
  },
};

const embedded: TestBackend = {
  name: 'embedded',
  available: true,
  shared: false,
  async fresh() {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-embedded-'));
    await cp(await embeddedTemplate(), join(dir, 'queue'), { recursive: true });
    return {
      store: { kind: 'embedded', dir: join(dir, 'queue') },
      prefix: DEFAULT_PREFIX,
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  },
};

const postgres: TestBackend = {
  name: 'postgres',
  available: postgresAvailable,
  shared: true,
  async fresh() {
    const prefix = uniquePrefix();
    const namespace = namespaceOf(prefix);
    return {
      store: { kind: 'postgres', url: DATABASE_URL },
      prefix,
      async cleanup() {
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS "${namespace}" CASCADE`);
          await client.query(`DROP SCHEMA IF EXISTS "${namespace}_state" CASCADE`);
        } finally {
          await client.end();
        }
      },
    };
  },
};

/** Every backend, for `describe.each`; unavailable ones are skipped by the caller. */
export const BACKENDS: TestBackend[] = [redis, embedded, postgres];
