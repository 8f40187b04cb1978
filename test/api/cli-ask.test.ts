import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';

const run = promisify(execFile);
const NODE = join(process.cwd(), 'node_modules/.bin/node');
let sandbox: Sandbox;
let config: string;

async function cli(args: string[], env: Record<string, string> = {}) {
  return run(NODE, ['src/cli/main.ts', ...args], { env: { ...process.env, ...env }, timeout: 20_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

beforeAll(async () => {
  sandbox = await startSandbox({ secretKey: 'sk-cli-test', streamDelayMs: 1 });
  const dir = await mkdtemp(join(tmpdir(), 'feed-sync-cli-'));
  config = join(dir, 'feed-sync.yaml');
  await writeFile(config, `api:\n  baseUrl: ${sandbox.url}\n  secretKey: \${CHATBOT_SECRET_KEY}\n`);
});
afterAll(() => sandbox.close());

describe('feed-sync ask', () => {
  it('prints the answer', async () => {
    const result = await cli(['ask', '--config', config, '--chatbot', 'bot-1', 'Any houses?'], {
      CHATBOT_SECRET_KEY: 'sk-cli-test',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Sandbox answer to "Any houses\?".*0 listings/);
  });

  it('streams pieces, and --json prints each event', async () => {
    const result = await cli(['ask', '-c', config, '--chatbot', 'bot-1', '--stream', '--json', 'Hi'], {
      CHATBOT_SECRET_KEY: 'sk-cli-test',
    });
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events.filter((e) => e.type === 'piece').length).toBeGreaterThan(1);
    expect(events.at(-1)?.type).toBe('final');
  });

  it('fails in one line naming the platform error, never the key', async () => {
    const result = await cli(['ask', '-c', config, '--chatbot', 'bot-1', 'Hi'], {
      CHATBOT_SECRET_KEY: 'sk-WRONG-key',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^feed-sync: E_PLATFORM: session: platform answered Code 401/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('sk-WRONG-key');
  });

  it('names the missing environment variable of the config', async () => {
    const result = await cli(['ask', '-c', config, '--chatbot', 'bot-1', 'Hi'], { CHATBOT_SECRET_KEY: '' });
    // An empty variable is refused at start, before any call (issue 9: never a silent unset key).
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/api\.secretKey: is empty or blank/);
    const unset = await run(NODE, ['src/cli/main.ts', 'ask', '-c', config, '--chatbot', 'b', 'Hi'], {
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'CHATBOT_SECRET_KEY')),
    }).catch((error: { stderr: string }) => error);
    expect((unset as { stderr: string }).stderr).toContain(
      'api.secretKey: environment variable CHATBOT_SECRET_KEY is not set',
    );
  });
});
