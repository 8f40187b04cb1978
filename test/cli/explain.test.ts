import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.ts';
import { DEFAULT_PREFIX, openQueueStore } from '../../src/queue/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { createRedisStateStore } from '../../src/state/index.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';
import { REDIS_URL, redisAvailable, testPrefix } from '../helpers/services.ts';
import { BACKENDS } from '../worker/backends.ts';
import { cleanupPrefix, fakeReport } from '../worker/helpers.ts';

/** `feed-sync explain` (issue 22) on the real binary, spawned as a user runs it. */
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
const BIN = join(ROOT, 'bin/feed-sync.js');
// No worker store of the caller's: each test says where the history is.
const { LOG_LEVEL: _level, REDIS_URL: _redis, DATABASE_URL: _pg, ...quietEnv } = process.env;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bin(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      NODE,
      [BIN, ...args],
      // No worker's embedded store unless a test names one (`.feed-sync` under the checkout else).
      { timeout: 30_000, env: { ...quietEnv, FEED_SYNC_STATE_DIR: join(dir, 'no-worker'), ...env } },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

const row = (n: number, options: { price?: number | string; beds?: number | string } = {}) =>
  csvRow(n, { ...options, host: 'explain.example' });

let dir: string;
let sandbox: Sandbox;
let config: string;
const feed = (rows: string, file = 'feed.csv') => writeFile(join(dir, file), HEADER + rows);
const explain = (...args: string[]) => bin(['explain', '-c', config, '--feed', 'ex-feed', ...args]);
const writes = () => {
  const { create, update, delete: deleted } = sandbox.stats().requests;
  return { create, update, delete: deleted };
};
const idOf = (key: string) => sandbox.listings('EX-BOT').find((l) => l.MLSNumber === key)?.ID;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-explain-'));
  sandbox = await startSandbox();
  config = join(dir, 'feed-sync.yaml');
  await writeFile(config, csvFeedConfig(sandbox.url, { id: 'ex-feed', chatbot: 'EX-BOT' }));
  await feed([1, 2, 3, 4, 5].map((n) => row(n)).join(''));
  expect((await bin(['sync', '-c', config, '--feed', 'ex-feed'])).code).toBe(0);
  // The next day's feed: M-2 cheaper, M-3's row broken by hand, M-4 gone, M-6 new.
  await feed([row(1), row(2, { price: 250_000 }), row(3, { beds: 'three' }), row(5), row(6)].join(''));
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('feed-sync explain --feed ID KEY', () => {
  it('in sync: the source row and its raw fields, each field and where it came from, the platform, the history', async () => {
    const before = writes();
    const listBefore = sandbox.stats().requests.list;
    const { code, stdout, stderr } = await explain('M-1');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('M-1 · feed ex-feed → chatbot EX-BOT (matched by MLSNumber)');
    expect(stdout).toContain('Source: row 2 of feed.csv (a valid listing; 5 records read, full feed)');
    expect(stdout).toMatch(/\n {2}Price +"300000"\n/);
    expect(stdout).toMatch(/\n {2}SalePrice +\$300,000 +← "Price" "300000"\n/);
    expect(stdout).toMatch(/\n {2}SaleType +"for_sale" +← constant "for_sale"\n/);
    expect(stdout).toMatch(
      /\n {2}AreaUnit +"Square Feet" +← the default unit \(mapping\.areaUnit unset\) \[computed\]\n/,
    );
    expect(stdout).toContain('  tags feed-sync adds: feed-sync:feed=ex-feed, feed-sync:hash=');
    expect(stdout).toContain(
      'Platform: 1 listing with MLSNumber M-1 (filtered by MLSNumber M-1; 1 list call)',
    );
    expect(stdout).toContain(`  ID ${idOf('M-1')} · owned by ex-feed`);
    expect(stdout).toContain(
      'Verdict: in sync: the platform already has the feed’s listing; a sync writes nothing',
    );
    expect(stdout).toMatch(
      /History: the last runs that touched it, newest first \(1 run in the state file .*state\.json\)\n {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}created: \$300,000 \(manual run, ok\)\n/,
    );
    // Never a write, and one list call filtered by the key: never a scan of the chatbot.
    expect(writes()).toEqual(before);
    expect(sandbox.stats().requests.list - listBefore).toBe(1);
  });

  it('a changed price: the field-by-field difference a sync would write, old → new', async () => {
    const { code, stdout } = await explain('M-2');
    expect(code).toBe(0);
    // The platform's listing, the feed's value beside the field that differs.
    expect(stdout).toMatch(/\n {4}SalePrice +\$300,000 + ≠ feed \$250,000\n/);
    expect(stdout).toContain(
      `Verdict: a sync would update ID ${idOf('M-2')}: 1 field differs\n    SalePrice: $300,000 → $250,000\n`,
    );
  });

  /** A row with its Parking column (the 11th) empty: a field the feed no longer sets. */
  const withoutParking = (text: string) =>
    text
      .split(',')
      .map((v, i) => (i === 10 ? '' : v))
      .join(',');

  it('a field the feed no longer sets: the platform’s value cleared by a replace, or kept under unsetFields: keep', async () => {
    await feed(
      [row(1), row(2, { price: 250_000 }), row(3, { beds: 'three' }), row(5, { price: '' }), row(6)].join(''),
    );
    try {
      const { code, stdout } = await explain('M-5');
      expect(code).toBe(0);
      expect(stdout).toMatch(/\n {4}SalePrice +\$300,000 + \(the feed leaves it unset: cleared\)\n/);
      expect(stdout).toContain(
        `Verdict: a sync would replace ID ${idOf('M-5')} (1 field differs): the feed leaves SalePrice unset, and no value the platform takes clears a field, so the listing is created anew and ID ${idOf('M-5')} deleted\n    SalePrice: $300,000 → (unset)`,
      );
      const keeps = join(dir, 'keeps.yaml');
      await writeFile(
        keeps,
        (await readFile(config, 'utf8')).replace(
          /^( +)chatbot: EX-BOT$/m,
          '$1chatbot: EX-BOT\n$1unsetFields: keep',
        ),
      );
      const kept = await bin(['explain', '-c', keeps, '--feed', 'ex-feed', 'M-5']);
      expect(kept.stdout).toMatch(/\n {4}SalePrice +\$300,000 + \(the feed leaves it unset: kept\)\n/);
      expect(kept.stdout).toContain(
        `Verdict: a sync would update ID ${idOf('M-5')}: only the record hash differs: the feed no longer sets SalePrice (the platform keeps SalePrice, which the feed leaves unset: a sync does not clear it: the feed's unsetFields is keep), or a field the list never returns (AreaUnit, Location) changed`,
      );
    } finally {
      await feed([row(1), row(2, { price: 250_000 }), row(3, { beds: 'three' }), row(5), row(6)].join(''));
    }
  });

  it('a rejected row: each problem, the hold, and why nothing is written', async () => {
    const { code, stdout } = await explain('M-3');
    expect(code).toBe(0);
    expect(stdout).toContain('Source: row 4 of feed.csv (rejected; 5 records read, full feed)');
    expect(stdout).toMatch(
      /\n {2}Bedrooms +\(unset\) +← "Beds" "three" {2}✗ Bedrooms "three" is not a number\n/,
    );
    expect(stdout).toContain('  problems:\n    Bedrooms: Bedrooms "three" is not a number [not_a_number]\n');
    expect(stdout).toContain(
      `Verdict: held: its last feed record is rejected (Row 4 of feed.csv: Bedrooms "three" is not a number); ID ${idOf('M-3')} stays exactly as it is until the record is fixed`,
    );
  });

  it('gone from the feed, and new in it', async () => {
    const gone = await explain('M-4');
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('Source: no record with MLSNumber M-4 among the 5 records of feed.csv');
    expect(gone.stdout).toContain(
      `Verdict: gone from the feed: a sync would delete ID ${idOf('M-4')}, unless`,
    );
    const created = await explain('M-6');
    expect(created.stdout).toContain('Platform: no listing with MLSNumber M-6');
    expect(created.stdout).toContain('Verdict: not on the platform: a sync would create it');
  });

  it('--json: the same five parts as one document', async () => {
    const { code, stdout } = await explain('M-2', '--json');
    expect(code).toBe(0);
    const doc = JSON.parse(stdout);
    expect(doc).toMatchObject({
      feedId: 'ex-feed',
      key: 'M-2',
      keyField: 'MLSNumber',
      source: {
        found: true,
        kind: 'listing',
        place: { where: 'row 3 of feed.csv', row: 3 },
        fields: { Price: '250000' },
      },
      listing: { status: 'valid', problems: [] },
      platform: { lookedUp: true, calls: 1, records: [{ id: idOf('M-2'), owner: 'ex-feed' }] },
      verdict: {
        state: 'will write',
        lines: [
          {
            action: 'update',
            id: idOf('M-2'),
            changes: [{ field: 'SalePrice', from: 300_000, to: 250_000 }],
          },
        ],
        classification: [{ kind: 'update', id: idOf('M-2') }],
      },
      history: { runs: 1, entries: [{ what: 'created', trigger: 'manual', outcome: 'ok' }] },
    });
    expect(doc.listing.fields).toContainEqual({
      field: 'SalePrice',
      value: 250_000,
      origin: 'config',
      rule: '"Price"',
      inputs: [{ path: 'Price', value: '250000' }],
    });
  });

  it('a key the feed deleted: the one line, and the runs that touched it (a tester: the history was dropped)', async () => {
    const deleted = join(dir, 'deleted.yaml');
    await writeFile(
      deleted,
      csvFeedConfig(sandbox.url, { id: 'del-feed', chatbot: 'DEL-BOT' })
        .replace('state.json', 'deleted-state.json')
        .replace('path: feed.csv', 'path: deleted.csv'),
    );
    await feed([1, 2].map((n) => row(n)).join(''), 'deleted.csv');
    expect((await bin(['sync', '-c', deleted, '--feed', 'del-feed'])).code).toBe(0);
    await feed(row(1), 'deleted.csv');
    expect((await bin(['sync', '-c', deleted, '--feed', 'del-feed'])).code).toBe(0);
    const { code, stdout, stderr } = await bin(['explain', '-c', deleted, '--feed', 'del-feed', 'M-2']);
    expect(code).toBe(1);
    expect(stderr).toContain('M-2 is in neither feed del-feed');
    expect(stdout).toMatch(
      /^History: the last runs that touched it, newest first \(2 runs in the state file .*deleted-state\.json\)\n {2}\S+ \S+ {2}deleted ID \d+ \(gone from the feed\)|^History: the last runs that touched it, newest first \(2 runs in the state file .*deleted-state\.json\)\n {2}\S+ \S+ {2}deleted ID \d+/,
    );
    expect(stdout).toMatch(/\n {2}\S+ \S+ {2}created: \$300,000 \(manual run, ok\)\n$/);
  });

  it('a key in neither the feed nor the platform: one line, exit 1', async () => {
    const result = await explain('NOPE-1');
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'feed-sync: NOPE-1 is in neither feed ex-feed (5 records read) nor chatbot EX-BOT (list filtered by MLSNumber NOPE-1, then no filter (every listing read))\n',
    });
  });

  it('a key held by a shifted row: the row as it was read, why it is broken, the hold', async () => {
    const shifted = 'M-5,Active,Condo,300,000,2,1,900,0,1990,3,1,https://explain.example/l/M-5\n';
    await feed([row(1), row(2, { price: 250_000 }), row(3, { beds: 'three' }), shifted, row(6)].join(''));
    try {
      const { code, stdout } = await explain('M-5');
      // Not an unknown key: the broken row holds its listing.
      expect(code).toBe(0);
      expect(stdout).toContain(
        'Source: no record with MLSNumber M-5 among the 5 records of feed.csv\n  row 5 of feed.csv is broken and its text holds M-5, so it holds the listing: Row 5 of feed.csv: has 13 fields, the header has 12',
      );
      // Its cells in order, under the header's names, and the one beyond it.
      expect(stdout).toMatch(
        /\n {4}MLS +"M-5"\n {4}Status +"Active"\n {4}Type +"Condo"\n {4}Price +"300"\n {4}Beds +"000"\n/,
      );
      expect(stdout).toMatch(/\n {4}\(field 13, beyond the header\) +"https:\/\/explain\.example\/l\/M-5"\n/);
      expect(stdout).toContain(
        'Listing: none readable: the record is broken (above), so its listing is held as it is on the platform',
      );
      expect(stdout).toContain(
        `Verdict: held: the key appears in a broken record (the shifted row 5 of feed.csv), which may be this listing; ID ${idOf('M-5')} stays exactly as it is until the row is fixed`,
      );
    } finally {
      await feed([row(1), row(2, { price: 250_000 }), row(3, { beds: 'three' }), row(5), row(6)].join(''));
    }
  });

  it('a feed that cannot be read: the listing is unknown, not absent, and the exit is 1', async () => {
    const missing = join(dir, 'missing.yaml');
    await writeFile(
      missing,
      csvFeedConfig(sandbox.url, { id: 'ex-feed', chatbot: 'EX-BOT' }).replace('feed.csv', 'gone.csv'),
    );
    const result = await bin(['explain', '-c', missing, '--feed', 'ex-feed', 'M-1']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `Source: the feed could not be read: feed ex-feed: file not found: ${join(dir, 'gone.csv')}\n`,
    );
    expect(result.stdout).toContain(
      '\nListing: unknown: the feed could not be read, so what it makes of the key is not known\n',
    );
    expect(result.stdout).not.toContain('the feed has no record with the key');
    expect(result.stdout).toContain('Verdict: unknown: the feed could not be read');
    expect(result.stderr).toBe('feed-sync: the feed could not be read (see above)\n');
  });

  it('a feed with no records: not "a sync would delete" (a sync of it fails and deletes nothing), the exit is 1', async () => {
    const empty = join(dir, 'empty.yaml');
    await writeFile(join(dir, 'empty.csv'), HEADER);
    await writeFile(
      empty,
      csvFeedConfig(sandbox.url, { id: 'ex-feed', chatbot: 'EX-BOT' }).replace('feed.csv', 'empty.csv'),
    );
    const result = await bin(['explain', '-c', empty, '--feed', 'ex-feed', 'M-1']);
    expect(result.stdout).not.toContain('a sync would delete');
    expect(result.stdout).toContain(
      'Verdict: unknown: the feed has no records (a sync of it fails and deletes nothing)',
    );
    expect(result.code).toBe(1);
  });

  it('history: a run with a rejected row is partial, as the dashboard says it', async () => {
    const synced = await bin(['sync', '-c', config, '--feed', 'ex-feed']);
    expect(synced.code).toBe(4);
    expect(synced.stdout).toMatch(/^~ ex-feed → EX-BOT: partial in /);
    const { stdout } = await explain('M-2');
    expect(stdout).toMatch(
      /History: the last runs that touched it, newest first \(2 runs in the state file .*\)\n {2}\S+ \S+ {2}updated ID \d+ \(manual run, partial\)\n {4}SalePrice: \$300,000 → \$250,000\n {2}\S+ \S+ {2}created: \$300,000 \(manual run, ok\)\n/,
    );
    const json = JSON.parse((await explain('M-2', '--json')).stdout);
    expect(json.history.entries.map((e: { outcome: string }) => e.outcome)).toEqual(['partial', 'ok']);
  });

  it('a key the platform holds with a space after it: found without the filter, and in sync, as a sync reads it', async () => {
    const client = createClient({ baseUrl: sandbox.url, timeoutMs: 5_000 });
    const one = sandbox.listings('EX-BOT').find((l) => l.MLSNumber === 'M-1');
    if (!one?.ID) throw new Error('M-1 not created');
    const edit = (MLSNumber: string) =>
      client.updateListing({ ...one, Key: String(one.ID), KeyType: 'NewOaks', MLSNumber });
    await edit('M-1 ');
    try {
      const { code, stdout } = await explain('M-1');
      expect(code).toBe(0);
      // The platform's filter is by the exact text: the chatbot's first page finds it, keyed as the plan keys it.
      expect(stdout).toContain(
        'Platform: 1 listing with MLSNumber M-1 (filtered by MLSNumber M-1, then no filter (every listing read); 2 list calls)',
      );
      expect(stdout).toContain('Verdict: in sync');
      const planned = await bin(['plan', '-c', config, '--feed', 'ex-feed', '--json']);
      expect(JSON.parse(planned.stdout)).not.toHaveProperty('plan.creates.0');
    } finally {
      await edit('M-1');
    }
  });

  it('a platform that cannot be reached is said in its part, and the exit is 1', async () => {
    const down = join(dir, 'down.yaml');
    await writeFile(
      down,
      csvFeedConfig('http://127.0.0.1:9', { id: 'ex-feed', chatbot: 'EX-BOT', api: 'retries: 0' }),
    );
    const result = await bin(['explain', '-c', down, '--feed', 'ex-feed', 'M-1']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Platform: could not be read: list: cannot reach http://127.0.0.1:9 after 1 attempt: ECONNREFUSED',
    );
    expect(result.stdout).toContain('Verdict: unknown: the platform was not read');
    expect(result.stderr).toBe('feed-sync: the platform could not be read (see above)\n');
  });
});

describe('feed-sync explain: grace, and a feed keyed by Url', () => {
  it('gone, in grace until …; after the grace, the delete (--now)', async () => {
    const graced = join(dir, 'grace.yaml');
    await writeFile(
      graced,
      csvFeedConfig(sandbox.url, {
        id: 'grace-feed',
        chatbot: 'GRACE-BOT',
        feed: 'gone: { afterDays: 2 }',
      }).replace('state.json', 'grace-state.json'),
    );
    const run = (...args: string[]) => bin([...args, '-c', graced]);
    await feed([1, 2].map((n) => row(n)).join(''));
    expect((await run('sync', '--feed', 'grace-feed', '--now', '2026-11-20T09:00:00Z')).code).toBe(0);
    await feed(row(1));
    expect((await run('sync', '--feed', 'grace-feed', '--now', '2026-11-21T09:00:00Z')).code).toBe(0);
    const id = sandbox.listings('GRACE-BOT').find((l) => l.MLSNumber === 'M-2')?.ID;
    const during = await run('explain', '--feed', 'grace-feed', 'M-2', '--now', '2026-11-22T09:00:00Z');
    expect(during.code).toBe(0);
    expect(during.stdout).toContain(
      `Verdict: gone from the feed since 2026-11-21 09:00 UTC, in grace until 2026-11-23 09:00 UTC (gone.afterDays): ID ${id} is kept exactly as it is`,
    );
    expect(during.stdout).toMatch(
      /\n {2}2026-11-21 09:00:00Z {2}kept in grace ID \d+: gone since 2026-11-21 09:00 UTC, deleted from 2026-11-23 09:00 UTC/,
    );
    const after = await run('explain', '--feed', 'grace-feed', 'M-2', '--now', '2026-11-24T09:00:00Z');
    expect(after.stdout).toContain(
      `Verdict: gone from the feed (gone since 2026-11-21 09:00 UTC; its grace is over): a sync would delete ID ${id}`,
    );
    await feed([1, 2, 3, 4, 5].map((n) => row(n)).join(''));
  });

  it('a feed keyed by Url is looked up by its record’s MLSNumber, then its Url', async () => {
    const byUrl = join(dir, 'url.yaml');
    await writeFile(
      byUrl,
      csvFeedConfig(sandbox.url, { id: 'url-feed', chatbot: 'URL-BOT', feed: 'key: Url' }).replace(
        'state.json',
        'url-state.json',
      ),
    );
    await feed([1, 2].map((n) => row(n)).join(''));
    expect((await bin(['sync', '-c', byUrl, '--feed', 'url-feed'])).code).toBe(0);
    const url = 'https://explain.example/l/M-2';
    const found = await bin(['explain', '-c', byUrl, '--feed', 'url-feed', url]);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(`${url} · feed url-feed → chatbot URL-BOT (matched by Url)`);
    expect(found.stdout).toContain(
      `Platform: 1 listing with Url ${url} (filtered by MLSNumber M-2, then its Url; 1 list call)`,
    );
    expect(found.stdout).toContain('Verdict: in sync');
    // Not in the feed: the list has no Url filter, and a scan is not an explanation's to make.
    const unknown = await bin([
      'explain',
      '-c',
      byUrl,
      '--feed',
      'url-feed',
      'https://explain.example/l/none',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'feed-sync: https://explain.example/l/none is not in feed url-feed (2 records read), and a feed keyed by Url is looked up on the platform only through its feed record (the list has no Url filter): `feed-sync plan --feed url-feed` shows every listing\n',
    );
    // A key that is not a Url, in the feed nowhere: one line, nothing on stdout, exit 1 (--json too).
    for (const json of [[], ['--json']]) {
      const notUrl = await bin(['explain', '-c', byUrl, '--feed', 'url-feed', 'ML101', ...json]);
      expect(notUrl.code).toBe(1);
      expect(notUrl.stderr.split('\n')).toEqual([
        'feed-sync: ML101 is not in feed url-feed (2 records read), and a feed keyed by Url is looked up on the platform only through its feed record (the list has no Url filter): `feed-sync plan --feed url-feed` shows every listing',
        '',
      ]);
      if (json.length > 0) expect(JSON.parse(notUrl.stdout)).toMatchObject({ key: 'ML101', unknown: true });
      else expect(notUrl.stdout).toBe('');
    }
    // The MLSNumber of one of its records: the line names the Url to ask for.
    const byMls = await bin(['explain', '-c', byUrl, '--feed', 'url-feed', 'M-2']);
    expect(byMls).toEqual({
      code: 1,
      stdout: '',
      stderr: `feed-sync: M-2 is not a key of feed url-feed, which is keyed by Url: row 3 of feed.csv has MLSNumber M-2 and Url ${url}; ask for that: feed-sync explain --feed url-feed ${url}\n`,
    });
  });
});

describe('feed-sync explain: a preset’s facts and conditions', () => {
  it('each ExtensionColumn fact is a line of its own; an unset field says which condition failed', async () => {
    const reso = join(dir, 'reso.yaml');
    const json = join(ROOT, 'fixtures/feeds/presets/reso/land-and-facts.json');
    await writeFile(
      reso,
      `api: { baseUrl: ${sandbox.url}, pageSize: 20 }\nstateFile: reso-state.json\nfeeds:\n  - id: reso-feed\n    chatbot: RESO-BOT\n    source: { format: reso, path: ${json} }\n    mapping: { preset: reso }\n`,
    );
    expect((await bin(['sync', '-c', reso, '--feed', 'reso-feed'])).code).toBe(0);
    const { code, stdout } = await bin(['explain', '-c', reso, '--feed', 'reso-feed', 'RF-4']);
    expect(code).toBe(0);
    const facts = stdout.split('\n').filter((l) => l.startsWith('  ExtensionColumn'));
    // The one fact the record gives, not every fact key of the preset.
    expect(facts).toEqual([
      '  ExtensionColumn[Office]  "Example Realty"          ← "ListOfficeName", "ListOfficePhone" or "ListOfficePreferredPhone", "ListOfficeEmail" ("ListOfficeName" "Example Realty") [preset reso]',
    ]);
    expect(stdout).toMatch(
      /\n {2}RentPrice +\(unset\) +← "LeaseAmount" or "ListPrice", when PropertyType is "ResidentialLease" or "CommercialLease" \("ListPrice" 265000\) \(unset: PropertyType is "Residential", not "ResidentialLease" or "CommercialLease"\) \[preset reso\]\n/,
    );
    // The platform's copy, fact by fact too.
    expect(stdout).toMatch(/\n {4}ExtensionColumn\[Office\] +"Example Realty"\n/);
  });
});

describe('feed-sync explain: the worker’s embedded store (no REDIS_URL)', () => {
  it('reads the store the worker and its dashboard read: through the running worker, or alone when none runs', async () => {
    const embedded = BACKENDS.find((b) => b.name === 'embedded');
    const { store: choice, cleanup } = await embedded!.fresh();
    const store = await openQueueStore(choice, DEFAULT_PREFIX);
    let open = true;
    try {
      const price = { field: 'SalePrice', from: 300_000, to: 290_000 };
      await store.state.recordRun(
        'ex-feed',
        fakeReport('ex-feed', {
          trigger: 'schedule',
          startedAt: '2026-11-23T06:00:00.000Z',
          rejected: 1,
          changes: [{ key: 'M-1', op: 'update', id: 77, fields: [price] }],
        }),
      );
      // The worker's state dir: the store is `<dir>/queue`, as the worker finds it.
      const env = { FEED_SYNC_STATE_DIR: join(choice.kind === 'embedded' ? choice.dir : '', '..') };
      const entry =
        '  2026-11-23 06:00:00Z  updated ID 77 (schedule run, partial)\n    SalePrice: $300,000 → $290,000\n';
      const running = await bin(['explain', '-c', config, '--feed', 'ex-feed', 'M-1'], env);
      expect(running.code).toBe(0);
      expect(running.stdout).toMatch(
        /History: the last runs that touched it, newest first \(\d+ runs in the worker's store \(embedded PGlite at \S+\/queue, read through the running worker\) and the state file \S+: \d+ of them made by feed-sync sync from the command line\)\n/,
      );
      expect(running.stdout).toContain(entry);
      // The state file's runs (the CLI's sync) beside the worker's, marked, as the dashboard shows them.
      expect(running.stdout).toMatch(/\(manual run from the command line, ok\)\n/);
      await store.close();
      open = false;
      const alone = await bin(['explain', '-c', config, '--feed', 'ex-feed', 'M-1'], env);
      expect(alone.code).toBe(0);
      expect(alone.stdout).toMatch(
        /\(\d+ runs in the worker's store \(embedded PGlite at \S+\/queue; no worker running\) and the state file \S+: \d+ of them made by feed-sync sync from the command line/,
      );
      expect(alone.stdout).toContain(entry);
      // Its lock is given back: the worker starts again on it.
      const again = await openQueueStore(choice, DEFAULT_PREFIX);
      await again.close();
    } finally {
      if (open) await store.close();
      await cleanup();
    }
  }, 60_000);
});

describe('feed-sync explain: an embedded store no worker ran the feed in', () => {
  it('shows the state file’s runs, not "no recorded run" (a tester: `feed-sync ui` made the store)', async () => {
    const embedded = BACKENDS.find((b) => b.name === 'embedded');
    const { store: choice, cleanup } = await embedded!.fresh();
    const store = await openQueueStore(choice, DEFAULT_PREFIX);
    await store.close();
    try {
      const env = { FEED_SYNC_STATE_DIR: join(choice.kind === 'embedded' ? choice.dir : '', '..') };
      const { code, stdout } = await bin(['explain', '-c', config, '--feed', 'ex-feed', 'M-1'], env);
      expect(code).toBe(0);
      expect(stdout).toMatch(
        /History: the last runs that touched it, newest first \(\d+ runs? in the state file /,
      );
      expect(stdout).toContain('(manual run');
    } finally {
      await cleanup();
    }
  }, 60_000);
});

describe.skipIf(!redisAvailable)('feed-sync explain: the worker’s history', () => {
  it('with REDIS_URL, the runs the worker recorded there', async () => {
    const prefix = testPrefix();
    const redis = new Redis(REDIS_URL);
    try {
      const state = createRedisStateStore(redis, prefix);
      const price = { field: 'SalePrice', from: 300_000, to: 280_000 };
      await state.recordRun(
        'ex-feed',
        fakeReport('ex-feed', {
          trigger: 'schedule',
          startedAt: '2026-11-24T06:00:00.000Z',
          changes: [{ key: 'M-1', op: 'update', id: 41, fields: [price] }],
        }),
      );
      const worker = join(dir, 'worker.yaml');
      await writeFile(worker, `${await readFile(config, 'utf8')}worker: { prefix: "${prefix}" }\n`);
      const result = await bin(['explain', '-c', worker, '--feed', 'ex-feed', 'M-1'], { REDIS_URL });
      expect(result.code).toBe(0);
      // With the runs the command line made (a tester: explain left them out, the dashboard showed them).
      expect(result.stdout).toMatch(
        /\(\d+ runs in the worker's store \(Redis at \S+\) and the state file \S+: \d+ of them made by feed-sync sync from the command line\)\n/,
      );
      expect(result.stdout).toMatch(
        / {2}\S+ \S+ {2}created: \$300,000 \(manual run from the command line, ok\)\n/,
      );
      expect(result.stdout).toContain(
        '  2026-11-24 06:00:00Z  updated ID 41 (schedule run, ok)\n    SalePrice: $300,000 → $280,000\n',
      );
    } finally {
      redis.disconnect();
      await cleanupPrefix(prefix);
    }
  });
});
