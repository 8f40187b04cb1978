import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const NODE = join(process.cwd(), 'node_modules/.bin/node');

/** `feed-sync ui` as a user starts it, with only the given UI_* variables. */
function ui(env: Record<string, string>) {
  const { UI_HOST: _h, UI_USER: _u, UI_PASSWORD: _p, UI_PORT: _port, ...rest } = process.env;
  return new Promise<{ code: number | null; killed: boolean; stderr: string }>((resolve) => {
    // Redis on a port nothing answers: a refusal must come before any connection is tried.
    const child = execFile(
      NODE,
      ['bin/feed-sync.js', 'ui', '--port', '0', '-c', 'no-such-config.yaml'],
      { env: { ...rest, REDIS_URL: 'redis://127.0.0.1:9', ...env }, timeout: 15_000 },
      (_error, _stdout, stderr) => resolve({ code: child.exitCode, killed: child.killed, stderr }),
    );
  });
}

describe('feed-sync ui refuses to listen, and exits at once', () => {
  it.each([
    [{ UI_HOST: '0.0.0.0' }, /on 0\.0\.0\.0 without UI_USER and UI_PASSWORD/],
    [{ UI_HOST: '127.evil.example' }, /on 127\.evil\.example without UI_USER and UI_PASSWORD/],
    [
      { UI_HOST: '0.0.0.0', UI_USER: 'operator', UI_PASSWORD: 'change-me' },
      /example password from \.env\.example/,
    ],
    [{ UI_HOST: '0.0.0.0', UI_USER: 'operator', UI_PASSWORD: 'hunter2' }, /shorter than 12 characters/],
    // One of the two, on any host: the one missing named (it said "without UI_USER and UI_PASSWORD"
    // beyond loopback, and served a read-only dashboard on loopback, for a password that was given).
    [{ UI_HOST: '0.0.0.0', UI_PASSWORD: 'hunter2' }, /^feed-sync: UI_PASSWORD is set but UI_USER is not/],
    [
      { UI_PASSWORD: 'a long enough password' },
      /UI_PASSWORD is set but UI_USER is not: the dashboard's login needs both/,
    ],
    [{ UI_USER: 'operator' }, /UI_USER is set but UI_PASSWORD is not/],
  ])('%j', async (env, reason) => {
    const { code, killed, stderr } = await ui(env);
    expect(killed).toBe(false);
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(reason)]);
    expect(stderr).not.toContain('hunter2');
  });
});
