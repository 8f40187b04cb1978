import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';

/** Every behaviour here is checked on the real binary, spawned as a user runs it. */
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
const BIN = join(ROOT, 'bin/feed-sync.js');
const COMMANDS = [
  'sandbox',
  'ask',
  'validate',
  'plan',
  'sync',
  'push-settings',
  'worker',
  'ui',
  'demo',
  'healthcheck',
  'explain',
];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without a LOG_LEVEL of the caller's, so each test says the level it wants. */
const { LOG_LEVEL: _level, ...quietEnv } = process.env;

function bin(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      NODE,
      [BIN, ...args],
      { timeout: 30_000, env: { ...quietEnv, ...env } },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

const row = (n: number, price: number | string = 300_000) => csvRow(n, { price, host: 'bin.example' });
const rows = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => row(from + i)).join('');
const CONFIG = (url: string, concurrency = 4, chatbot = 'BIN-BOT') =>
  csvFeedConfig(url, {
    id: 'bin-feed',
    chatbot,
    api: `concurrency: ${concurrency}, pageSize: 100, retries: 0`,
  });

let dir: string;
let sandbox: Sandbox;
let config: string;
const feed = (text: string) => writeFile(join(dir, 'feed.csv'), HEADER + text);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-sync-bin-'));
  sandbox = await startSandbox();
  config = join(dir, 'feed-sync.yaml');
  await writeFile(config, CONFIG(sandbox.url));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the feed-sync binary: help and usage', () => {
  it('--version prints the package version', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    const result = await bin(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('lists every command in --help, with examples', async () => {
    const { code, stdout } = await bin(['--help']);
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(stdout).toContain('Examples:\n  $ feed-sync ');
  });

  it('no command at all: the help on stderr, exit 2', async () => {
    const result = await bin([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Usage: feed-sync \[options\] \[command\]/);
  });

  it.each(COMMANDS)('%s --help: options and an example, exit 0', async (command) => {
    const { code, stdout, stderr } = await bin([command, '--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(new RegExp(`^Usage: feed-sync ${command}`, 'm'));
    expect(stdout).toMatch(new RegExp(`Examples:\\n {2}\\$ .*feed-sync ${command}\\b`));
  });

  it.each([
    [
      'an unknown command',
      ['snyc', '--all'],
      /^feed-sync: unknown command 'snyc' \(Did you mean sync\?\); see feed-sync --help\n$/,
    ],
    [
      'an unknown option',
      ['sync', '--al'],
      /^feed-sync: unknown option '--al'.*; see feed-sync sync --help\n$/,
    ],
    [
      'a missing argument',
      ['ask', '--chatbot', 'X'],
      /^feed-sync: missing required argument 'question'; see feed-sync ask --help\n$/,
    ],
    [
      'a missing required option',
      ['plan'],
      /^feed-sync: required option '--feed <id>' not specified; see feed-sync plan --help\n$/,
    ],
    [
      'a typo of a required option: the typo named, as for any other option',
      ['plan', '--fed', 'acme'],
      /^feed-sync: unknown option '--fed' \(Did you mean --feed\?\); see feed-sync plan --help\n$/,
    ],
    [
      'a required option of another command',
      ['explain', 'K-1'],
      /^feed-sync: required option '--feed <id>' not specified; see feed-sync explain --help\n$/,
    ],
    [
      'an option without its value',
      ['validate', '--feed'],
      /^feed-sync: option '--feed <id>' argument missing; see feed-sync validate --help\n$/,
    ],
    [
      'a bad --limit',
      ['plan', '--feed', 'x', '--limit', 'many'],
      /^feed-sync: .*--limit.*whole number.*; see feed-sync plan --help\n$/,
    ],
  ])('%s: one line with the help hint, exit 2', async (_what, args, message) => {
    const result = await bin(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });

  it('a config error is one line naming the file, exit 2; --debug adds the stack', async () => {
    const missing = await bin(['validate', '-c', 'no-such-file.yaml']);
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: 'feed-sync: invalid config: no-such-file.yaml: file not found\n',
    });
    // The dashboard on its own too: a named config that is not there is not passed over for the
    // default queue prefix (an empty dashboard, "all healthy").
    for (const named of [['-c', 'no-such-file.yaml'], []]) {
      const env: Record<string, string> = named.length === 0 ? { FEED_SYNC_CONFIG: 'no-such-file.yaml' } : {};
      expect(await bin(['ui', ...named, '--port', '0'], env)).toEqual(missing);
    }
    const debug = await bin(['validate', '-c', 'no-such-file.yaml', '--debug']);
    expect(debug.code).toBe(2);
    expect(debug.stderr.split('\n')[0]).toBe('feed-sync: invalid config: no-such-file.yaml: file not found');
    expect(debug.stderr).toMatch(/\n\s+at .*load\.ts/);
  });

  it('sync with neither --feed nor --all: one line with the help hint, exit 2', async () => {
    const result = await bin(['sync', '-c', config]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'feed-sync: give --feed ID or --all; see feed-sync sync --help\n',
    });
  });

  it('a config with neither api.secretKey nor api.sessionKey is refused when it loads, in one line', async () => {
    const keyless = join(dir, 'keyless.yaml');
    await writeFile(keyless, CONFIG(sandbox.url).replace(sandbox.url, 'https://usapi.example.com'));
    const result = await bin(['sync', '-c', keyless, '--feed', 'bin-feed']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^feed-sync: invalid config: \S*keyless\.yaml:2:\d+: api: neither api\.secretKey nor api\.sessionKey is set, so every request to usapi\.example\.com would be refused; set secretKey: \$\{CHATBOT_SECRET_KEY\} \(or sessionKey\)[^\n]*\n$/,
    );
    // The same config with a key loads; the sandbox on loopback needs none (README quick start).
    await writeFile(
      keyless,
      CONFIG(sandbox.url).replace(sandbox.url, 'https://usapi.example.com, secretKey: k'),
    );
    expect((await bin(['validate', '-c', keyless])).code).toBe(0);
    expect((await bin(['validate', '-c', config])).code).toBe(0);
  });

  it('validate calls no platform: a missing key is a note, never a refusal (sync still refuses)', async () => {
    await feed(rows(1, 2));
    const keyless = join(dir, 'keyless-validate.yaml');
    await writeFile(keyless, CONFIG(sandbox.url).replace(sandbox.url, 'https://usapi.example.com'));
    const read = await bin(['validate', '-c', keyless, '--feed', 'bin-feed']);
    expect(read.code).toBe(0);
    expect(read.stdout).toMatch(/^✓ bin-feed: 2 records: 2 valid/);
    expect(read.stdout).toContain(
      '\nnote: api: neither api.secretKey nor api.sessionKey is set, so every request to usapi.example.com would be refused; set secretKey: ${CHATBOT_SECRET_KEY} (or sessionKey), or point api.baseUrl at a local sandbox (http://127.0.0.1:4010 needs no key) (validate calls no platform; plan, sync and the worker refuse to start without a key)\n',
    );
    // The key from an unset variable: the same, named by the variable; --json carries the notes.
    const fromEnv = join(dir, 'key-from-env.yaml');
    await writeFile(
      fromEnv,
      CONFIG(sandbox.url).replace(
        sandbox.url,
        'https://usapi.example.com, secretKey: "${CHATBOT_SECRET_KEY}"',
      ),
    );
    const json = await bin(['validate', '-c', fromEnv, '--feed', 'bin-feed', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      feeds: [{ feedId: 'bin-feed', ok: true }],
      notes: ['api.secretKey: environment variable CHATBOT_SECRET_KEY is not set'],
    });
    const plain = await bin(['validate', '-c', fromEnv]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('note: api.secretKey: environment variable CHATBOT_SECRET_KEY is not set');
    // What calls the platform still refuses, in one line, before any request.
    const sync = await bin(['sync', '-c', fromEnv, '--feed', 'bin-feed']);
    expect(sync.code).toBe(2);
    expect(sync.stderr).toMatch(/api\.secretKey: environment variable CHATBOT_SECRET_KEY is not set/);
  });

  it('sync --all with every feed off says so in one line, syncs nothing, exit 0', async () => {
    const off = join(dir, 'off.yaml');
    await writeFile(
      off,
      CONFIG(sandbox.url).replace('    chatbot: BIN-BOT', '    chatbot: BIN-BOT\n    enabled: false'),
    );
    const result = await bin(['sync', '-c', off, '--all', '--json']);
    expect(result).toEqual({
      code: 0,
      stdout: '[]\n',
      stderr: `feed-sync: no enabled feed in ${off}: bin-feed is off (enabled: false); nothing synced\n`,
    });
    // Named, it runs, and says it is disabled (a new user's sync of it said nothing).
    const named = await bin(['sync', '-c', off, '--feed', 'bin-feed', '--dry-run']);
    expect(named.stderr).toContain(
      'feed-sync: bin-feed is disabled (enabled: false): running it because --feed names it; the worker does not run it\n',
    );
    // It ran (ok, or failed where an earlier test left no file: the run's own verdict either way).
    expect(named.stdout).toMatch(/bin-feed → BIN-BOT: (ok|failed) \(dry run\)/);
    // No feed at all.
    await writeFile(off, `api: { baseUrl: ${sandbox.url} }\nstateFile: state.json\n`);
    expect(await bin(['sync', '-c', off, '--all'])).toEqual({
      code: 0,
      stdout: '',
      stderr: `feed-sync: no feed in ${off} (its feeds: list is empty); nothing synced\n`,
    });
  });

  it('an unknown feed id is a usage error naming the feeds there are', async () => {
    const result = await bin(['sync', '-c', config, '--feed', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('feed-sync: no feed "nope" in the config (feeds: bin-feed)\n');
    // Every command alike (validate said exit 1), and with --json one document saying it.
    for (const command of ['validate', 'plan', 'sync']) {
      const json = await bin([command, '-c', config, '--feed', 'nope', '--json']);
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout)).toEqual({
        config: {
          ok: false,
          issues: ['no feed "nope" in the config (feeds: bin-feed)'],
          problems: [{ path: '--feed', message: 'no feed "nope" in the config (feeds: bin-feed)' }],
        },
      });
    }
  });
});

describe('the feed-sync binary: reports, logs and exit codes', () => {
  it('0 ok: the human report on stdout, plain progress lines on stderr; a second run writes nothing', async () => {
    await feed(rows(1, 5));
    const first = await bin(['sync', '-c', config, '--feed', 'bin-feed']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^✓ bin-feed → BIN-BOT: ok in [\d.]+s\n {2}created 5, updated 0, deleted 0/);
    // Not a terminal: one plain line per phase, no redraws, no JSON log noise at the default level.
    expect(first.stderr).toContain('bin-feed: fetching\n');
    expect(first.stderr).toContain('bin-feed: applying 0/5\n');
    expect(first.stderr).not.toContain('\r');
    const again = await bin(['sync', '-c', config, '--feed', 'bin-feed', '--force-full']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('created 0, updated 0, deleted 0, unchanged 5');
  });

  it('--json: one JSON document on stdout and nothing else; logs stay JSON lines on stderr', async () => {
    const result = await bin(['sync', '-c', config, '--feed', 'bin-feed', '--json', '--force-full'], {
      LOG_LEVEL: 'info',
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ feedId: 'bin-feed', outcome: 'ok', unchanged: 5 });
    const logLines = result.stderr.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(JSON.parse(logLines.at(-1) ?? '')).toMatchObject({ level: 30, msg: 'sync finished' });
  });

  it('4 partial: a rejected record is named by row and field, the rest synced', async () => {
    await feed(`${rows(1, 5)}M-6,Active,Condo,cheap,2,1,900,0,1990,3,1,https://bin.example/l/M-6\n`);
    // A dry run first: the same exit, its last line not claiming it synced.
    const dry = await bin(['sync', '-c', config, '--feed', 'bin-feed', '--dry-run']);
    expect(dry.code).toBe(4);
    expect(dry.stderr.trimEnd().split('\n').at(-1)).toBe(
      'feed-sync: dry run: nothing written; some feed records are rejected or held, or skipped for a feed id the config does not have (see the report)',
    );
    const result = await bin(['sync', '-c', config, '--feed', 'bin-feed'], { LOG_LEVEL: 'info' });
    expect(result.code).toBe(4);
    // The outcome the dashboard shows, in the report and in the log: partial, not ok.
    expect(result.stdout).toMatch(/^~ bin-feed → BIN-BOT: partial in [\d.]+s\n/);
    const finished = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'sync finished');
    expect(finished).toMatchObject({ level: 30, outcome: 'partial', held: 1 });
    // Where its time went, for a log search: the report's phases.
    expect(Object.keys(finished.phases)).toEqual(['feedMs', 'pagesMs', 'planMs', 'writesMs']);
    expect(result.stdout).toContain('Row 7 of feed.csv (M-6): SalePrice "cheap" is not a number');
    // Its listing is held, with the reason in words rather than its code.
    expect(result.stdout).toContain(
      `    M-6: held: its record was rejected: Row 7 of feed.csv: SalePrice "cheap" is not a number`,
    );
    expect(result.stdout).not.toContain('not_a_number');
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'feed-sync: synced, but some feed records were rejected or held, or skipped for a feed id the config does not have (see the report)',
    );
  });

  it('1 failed: a platform that cannot be reached; the report counts the call and says its attempts', async () => {
    await feed(rows(1, 2));
    const down = join(dir, 'down.yaml');
    await writeFile(
      down,
      csvFeedConfig('http://127.0.0.1:9', { id: 'bin-feed', chatbot: 'BIN-BOT', api: 'retries: 2' }),
    );
    const result = await bin(['sync', '-c', down, '--feed', 'bin-feed']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^✗ bin-feed → BIN-BOT: failed in [\d.]+s — snapshot: list: cannot reach http:\/\/127\.0\.0\.1:9 after 3 attempts: ECONNREFUSED\n/,
    );
    // One logical call (README), and the attempts it made before the run gave up.
    expect(result.stdout).toContain('\n  API calls: list 1 (3 attempts)\n');
    const json = await bin(['sync', '-c', down, '--feed', 'bin-feed', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      apiCalls: { list: 1 },
      apiCallsFailed: { list: { calls: 1, attempts: 3 } },
    });
  });

  it('3 guard tripped: deletes held back until --allow-mass-delete', async () => {
    await feed(row(1));
    const held = await bin(['sync', '-c', config, '--feed', 'bin-feed']);
    expect(held.code).toBe(3);
    expect(held.stdout).toContain('guard max-delete-share: TRIPPED');
    expect(held.stderr).toContain('rerun with --allow-mass-delete');
    // The exit line names the guard and what it held (a tester: "deletes (or replaces)" where none was).
    expect(held.stderr.trimEnd().split('\n').at(-1)).toBe(
      'feed-sync: a guard tripped (max-delete-share: 4 listing(s) kept that it would delete or mark Sold); the report says why and what to do',
    );
    expect(sandbox.listings('BIN-BOT')).toHaveLength(5);
    // A dry run says the same, as what a sync would do (a tester: its line said deletes where none were).
    const dry = await bin(['sync', '-c', config, '--feed', 'bin-feed', '--dry-run']);
    expect([dry.code, dry.stderr.trimEnd().split('\n').at(-1)]).toEqual([
      3,
      'feed-sync: dry run: nothing written; a guard tripped (max-delete-share: 4 listing(s) kept that it would delete or mark Sold); the report says why and what to do',
    ]);
    const allowed = await bin(['sync', '-c', config, '--feed', 'bin-feed', '--allow-mass-delete']);
    expect(allowed.code).toBe(0);
    expect(sandbox.listings('BIN-BOT')).toHaveLength(1);
  });

  it('1 failed: a feed that cannot be read fails the run in one line, deleting nothing', async () => {
    await rm(join(dir, 'feed.csv'));
    const result = await bin(['sync', '-c', config, '--feed', 'bin-feed']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ bin-feed → BIN-BOT: failed .*feed\.csv/);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('feed-sync: the sync failed (see the report)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(sandbox.listings('BIN-BOT')).toHaveLength(1);
  });

  it('1 failed: a platform that drops the connection is named with the attempts made', async () => {
    // A server that accepts each connection and resets it: ECONNRESET on every attempt.
    const server = createServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const resetting = join(dir, 'resetting.yaml');
    await writeFile(
      resetting,
      csvFeedConfig(`http://127.0.0.1:${port}`, { id: 'bin-feed', chatbot: 'BIN-BOT', api: 'retries: 2' }),
    );
    await feed(rows(1, 2));
    try {
      const result = await bin(['sync', '-c', resetting, '--feed', 'bin-feed']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`failed in`);
      expect(result.stdout.split('\n')[0]).toMatch(
        new RegExp(
          `— snapshot: list: cannot reach http://127\\.0\\.0\\.1:${port} after 3 attempts: ECONNRESET$`,
        ),
      );
    } finally {
      server.close();
    }
  });

  it('plan: 50 listings per kind by default, --limit N, --all; grouped by kind, summary last, prices with currency', async () => {
    // A chatbot of its own, so the plan does not depend on what the other tests left.
    const config = join(dir, 'plan.yaml');
    await writeFile(config, CONFIG(sandbox.url, 4, 'PLAN-BOT'));
    await feed(rows(1, 60));
    const plan = await bin(['plan', '-c', config, '--feed', 'bin-feed']);
    expect(plan.code).toBe(0);
    const lines = plan.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Plan: 60 to create, 0 to update, 0 to delete, 0 unchanged, 0 foreign.');
    expect(plan.stdout).toContain('Create (60):\n  + create  M-1  Active · $300,000 · 900 sq ft\n');
    expect(lines.filter((l) => l.startsWith('  + create'))).toHaveLength(50);
    expect(plan.stdout).toContain('  … and 10 more (--limit N or --all to show them');
    const limited = await bin(['plan', '-c', config, '--feed', 'bin-feed', '--limit', '3']);
    expect(limited.stdout.split('\n').filter((l) => l.startsWith('  + create'))).toHaveLength(3);
    const all = await bin(['plan', '-c', config, '--feed', 'bin-feed', '--all']);
    expect(all.stdout.split('\n').filter((l) => l.startsWith('  + create'))).toHaveLength(60);
    expect(all.stdout).not.toContain('more (--limit');
  });
});

describe('the feed-sync binary: Ctrl-C, terminals, old Node', () => {
  it('130 interrupted: Ctrl-C stops cleanly with a short report of what was applied, no stack', async () => {
    const slow = await startSandbox({ latencyMs: 150 });
    const slowConfig = join(dir, 'slow.yaml');
    await writeFile(slowConfig, CONFIG(slow.url, 1).replace('state.json', 'slow-state.json'));
    await feed(rows(100, 140));
    try {
      const child: ChildProcess = spawn(NODE, [BIN, 'sync', '-c', slowConfig, '--feed', 'bin-feed'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk) => {
        stdout += String(chunk);
      });
      const applying = new Promise<void>((resolve) =>
        child.stderr?.on('data', (chunk) => {
          stderr += String(chunk);
          if (stderr.includes('bin-feed: applying')) resolve();
        }),
      );
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await applying;
      // A few creates in, then Ctrl-C.
      for (let i = 0; i < 400 && slow.listings('BIN-BOT').length < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stdout).toMatch(/^⏹ bin-feed → BIN-BOT: cancelled/);
      expect(stdout).toMatch(/not applied: \d+ creates/);
      const created = slow.listings('BIN-BOT').length;
      expect(created).toBeGreaterThan(0);
      expect(created).toBeLessThan(41);
      expect(stdout).toContain(`created ${created},`);
      expect(stderr).toContain(
        'feed-sync: interrupted: what was applied is above; the next run repairs the rest\n',
      );
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await slow.close();
    }
  });

  it('on a terminal: progress redrawn in place, logs as human lines', async (context) => {
    if (!existsSync('/usr/bin/script'))
      context.skip('no `script` (util-linux) to give the binary a terminal');
    await feed(rows(1, 3));
    const command = [NODE, BIN, 'sync', '-c', config, '--feed', 'bin-feed', '--force-full']
      .map((a) => `'${a}'`)
      .join(' ');
    // `script` gives the binary a pseudo-terminal, as a person's shell does.
    const result = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, LOG_LEVEL: 'info' },
      timeout: 30_000,
    });
    expect(result.stdout).toContain('\r\x1b[2Kbin-feed: ');
    expect(result.stdout).toMatch(/\d\d:\d\d:\d\d INFO sync finished feedId=bin-feed/);
    expect(result.stdout).not.toContain('{"level"');
  });

  const systemNode = '/usr/bin/node';
  it('an old Node says Node 24 is needed and how, in one line', async (context) => {
    const version = await promisify(execFile)(systemNode, ['--version']).then(
      (r) => r.stdout.trim(),
      () => '',
    );
    if (!version || Number(version.slice(1).split('.')[0]) >= 24)
      context.skip(`no Node < 24 at ${systemNode}`);
    const result = await new Promise<Result>((resolve) =>
      execFile(systemNode, [BIN, '--version'], (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      ),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^feed-sync needs Node 24 or newer, and this is Node 2\d\.[\d.]+: run it as `npx feed-sync`.*nvm install 24.*\n$/,
    );
    expect(result.stderr.split('\n')).toHaveLength(2);
  });
});
