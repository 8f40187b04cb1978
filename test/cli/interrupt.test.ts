import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { csvFeedConfig, csvRow, HEADER } from '../helpers/cli-feed.ts';

const NODE = join(process.cwd(), 'node_modules/.bin/node');
const BIN = join(process.cwd(), 'bin/feed-sync.js');
const CONFIG = (url: string) =>
  csvFeedConfig(url, { id: 'int-feed', chatbot: 'INT-BOT', api: 'concurrency: 2, pageSize: 50' });
const row = (n: number) => csvRow(n, { host: 'int.example' });

let dir: string | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * `feed-sync COMMAND` on a feed of `rows` records against a sandbox at `latencyMs`, interrupted
 * (SIGINT) once `ready` says so; its exit code and output.
 */
async function interrupted(
  command: 'plan' | 'sync',
  latencyMs: number,
  rows: number,
  ready: (platform: Sandbox) => boolean,
): Promise<{ code: number | null; stdout: string; stderr: string; platform: Sandbox; config: string }> {
  const platform = await startSandbox({ latencyMs });
  sandbox = platform;
  const folder = await mkdtemp(join(tmpdir(), `feed-sync-int-${command}-`));
  dir = folder;
  const config = join(folder, 'feed-sync.yaml');
  await writeFile(config, CONFIG(platform.url));
  await writeFile(
    join(folder, 'feed.csv'),
    HEADER + Array.from({ length: rows }, (_, i) => row(i + 1)).join(''),
  );
  const child = spawn(NODE, [BIN, command, '--feed', 'int-feed', '--config', config], { cwd: folder });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (ready(platform)) {
        clearInterval(poll);
        child.kill('SIGINT');
        resolve();
      }
    }, 10);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr, platform, config };
}

describe('Ctrl-C during feed-sync plan', () => {
  it('stops at once, says nothing was changed, exits 130', async () => {
    // Interrupted while the plan waits on the platform's first page.
    const { code, stderr, platform } = await interrupted('plan', 300, 20, (p) => p.stats().totalRequests > 0);
    expect(code).toBe(130);
    expect(stderr).toContain('feed-sync: interrupted: a plan writes nothing, so nothing was changed');
    expect(platform.listings('INT-BOT')).toHaveLength(0);
  });
});

describe('Ctrl-C during feed-sync sync', () => {
  it('stops issuing calls, lets calls in flight finish, prints what was applied, exits 130; the next run repairs', async () => {
    // Interrupt once some creates have landed.
    const {
      code,
      stdout,
      stderr,
      platform: current,
      config,
    } = await interrupted('sync', 40, 200, (p) => p.listings('INT-BOT').length >= 10);
    expect(code).toBe(130);
    expect(stdout).toMatch(/⏹ int-feed → INT-BOT: cancelled/);
    expect(stdout).toMatch(/not applied: \d+ creates/);
    expect(stderr).not.toMatch(/at .*\.ts:\d+/); // no stack
    expect(stderr).toContain('interrupted: what was applied is above');
    const created = current.listings('INT-BOT').length;
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(200);
    expect(stdout).toContain(`created ${created},`);

    // The next run repairs what was not applied, with no duplicate.
    const again = spawn(NODE, [BIN, 'sync', '--feed', 'int-feed', '--config', config], { cwd: dir });
    expect(await new Promise<number | null>((resolve) => again.on('close', resolve))).toBe(0);
    const keys = current.listings('INT-BOT').map((l) => l.MLSNumber);
    expect(keys).toHaveLength(200);
    expect(new Set(keys).size).toBe(200);
  });
});
