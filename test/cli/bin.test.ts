import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const NODE = join(process.cwd(), 'node_modules/.bin/node');

function bin(args: string[]) {
  return run(NODE, ['bin/feed-sync.js', ...args], { timeout: 20_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('the feed-sync binary', () => {
  it('lists every command in --help', async () => {
    const { code, stdout } = await bin(['--help']);
    expect(code).toBe(0);
    for (const command of [
      'sandbox',
      'ask',
      'validate',
      'plan',
      'sync',
      'push-settings',
      'worker',
      'ui',
      'demo',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it('runs a command and passes its exit code on', async () => {
    const ok = await bin(['validate', '-c', 'fixtures/feeds/feed-sync.yaml', '--feed', 'acme']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^✓ acme: 8 records/);
    const missing = await bin(['validate', '-c', 'no-such-file.yaml']);
    expect(missing.code).toBe(2); // a config problem: exit 2
    expect(missing.stderr).toBe('feed-sync: invalid config: no-such-file.yaml: file not found\n');
  });
});
