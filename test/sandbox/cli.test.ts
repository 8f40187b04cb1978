import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/api/schemas.ts';
import { toSandboxOptions } from '../../src/cli/commands/sandbox.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Run `feed-sync sandbox …` on Node 24 (this test's own Node) and wait for its one stdout line. */
async function runSandbox(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['src/cli/main.ts', 'sandbox', ...args], {
    env: { ...process.env, CHATBOT_SECRET_KEY: '', CHATBOT_SESSION_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  return { child, line, url: line.replace('sandbox listening on ', '') };
}

async function listStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url + PATHS.list, {
    method: 'POST',
    headers,
    body: JSON.stringify({ SerialNumber: 'b' }),
  });
  return ((await response.json()) as { Code: number }).Code;
}

describe('feed-sync sandbox', () => {
  it('prints one line with its URL, serves, and stops cleanly on SIGTERM', async () => {
    const { child, line, url } = await runSandbox([
      '--port',
      '0',
      '--session-key',
      'sess-k',
      '--latency',
      '1',
    ]);
    expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(await listStatus(url)).toBe(401);
    expect(await listStatus(url, { 'chatrobot-sessionkey': 'sess-k' })).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('takes the keys from the environment', async () => {
    const { child, url } = await runSandbox(['--port', '0'], { CHATBOT_SECRET_KEY: 'env-secret' });
    expect(await listStatus(url)).toBe(401);
    expect(await listStatus(url, { Authorization: 'env-secret' })).toBe(200);
    child.kill('SIGINT');
    expect((await once(child, 'exit'))[0]).toBe(0);
  });

  it("accepts the config's keys; a key variable left unset is a note, not a refusal to start", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-sandbox-cli-'));
    const config = join(dir, 'feed-sync.yaml');
    await writeFile(
      config,
      'api: { baseUrl: "https://api.example.com", secretKey: "${MY_PLATFORM_KEY}" }\nfeeds: []\n',
    );
    try {
      const keyed = await runSandbox(['--port', '0', '-c', config], { MY_PLATFORM_KEY: 'from-config' });
      expect(await listStatus(keyed.url)).toBe(401);
      expect(await listStatus(keyed.url, { Authorization: 'from-config' })).toBe(200);
      keyed.child.kill('SIGTERM');
      await once(keyed.child, 'exit');
      // A new user's project config, its key variable not set in this shell: the sandbox starts.
      const unset = await runSandbox(['--port', '0', '-c', config]);
      let stderr = '';
      unset.child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
      expect(await listStatus(unset.url)).toBe(200);
      unset.child.kill('SIGTERM');
      expect((await once(unset.child, 'exit'))[0]).toBe(0);
      expect(stderr).toContain('sandbox: api.secretKey: environment variable MY_PLATFORM_KEY is not set');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('maps its flags onto the sandbox options, leaving out those not given', () => {
    expect(
      toSandboxOptions({ port: 0, host: '127.0.0.1', fault500: 0.5, retryAfter: 2, latency: 10 }),
    ).toEqual({
      port: 0,
      host: '127.0.0.1',
      latencyMs: 10,
      faults: { error500Rate: 0.5, retryAfterSeconds: 2 },
    });
  });
});
