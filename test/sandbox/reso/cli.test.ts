import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function runSandbox(args: string[]) {
  const child = spawn(process.execPath, ['src/cli/main.ts', 'sandbox', ...args], {
    env: { ...process.env, RESO_SANDBOX_TOKEN: '', RESO_SANDBOX_CLIENT_SECRET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, line, stderr: () => stderr };
}

describe('feed-sync sandbox --reso', () => {
  it('plays Trestle with the given listings and limits, and stops cleanly', async () => {
    const { child, line, stderr } = await runSandbox([
      '--reso',
      'trestle',
      '--port',
      '0',
      '--listings',
      '40',
      '--limit',
      'minute=2',
      '--client-secret',
      's3cret',
    ]);
    expect(line).toMatch(/^sandbox \(trestle\) listening on http:\/\/127\.0\.0\.1:\d+\/trestle\/odata$/);
    const api = line.replace('sandbox (trestle) listening on ', '');
    const origin = new URL(api).origin;
    const token = await fetch(`${origin}/trestle/oidc/connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'sandbox-client',
        client_secret: 's3cret',
      }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const headers = { Authorization: `Bearer ${access_token}` };
    const page = await fetch(`${api}/Property?$top=100`, { headers });
    expect(((await page.json()) as { value: unknown[] }).value).toHaveLength(40);
    expect((await fetch(`${api}/Property`, { headers })).status).toBe(200);
    expect((await fetch(`${api}/Property`, { headers })).status).toBe(429);
    // The secret given on the command line is never echoed.
    expect(stderr()).not.toContain('s3cret');
    child.kill('SIGTERM');
    expect((await once(child, 'exit'))[0]).toBe(0);
  });

  it('refuses an unknown provider and a malformed limit', async () => {
    for (const args of [
      ['--reso', 'zillow'],
      ['--reso', 'mlsgrid', '--limit', 'hour'],
    ]) {
      const child = spawn(process.execPath, ['src/cli/main.ts', 'sandbox', '--port', '0', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const [code] = await once(child, 'exit');
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/zillow|NAME=N/);
    }
  });
});
