import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, sendJson, type TestServer, withServer } from '../helpers/with-server.ts';

const run = promisify(execFile);
const NODE = join(process.cwd(), 'node_modules/.bin/node');

describe('feed-sync push-settings', () => {
  let server: TestServer;
  let dir: string;
  let configFile: string;

  beforeAll(async () => {
    server = await withServer((_req, res) => sendJson(res, 200, ok(1)));
    dir = await mkdtemp(join(tmpdir(), 'feed-sync-push-'));
    configFile = join(dir, 'feed-sync.yaml');
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function writeConfig(name: string, language = 'fr') {
    await writeFile(
      configFile,
      [
        `api: { baseUrl: "${server.url}", secretKey: "sk-test" }`,
        'chatbots:',
        '  - chatbot: BOT1',
        `    settings: { Name: "${name}", AIResponseLanguage: ${language}, ChatBubbleColor: "rgb(1, 2, 3)" }`,
        '  - chatbot: BOT2',
      ].join('\n'),
    );
  }

  async function push(...args: string[]) {
    const { stdout } = await run(NODE, [
      'src/cli/main.ts',
      'push-settings',
      '-c',
      configFile,
      '--json',
      ...args,
    ]);
    return JSON.parse(stdout) as { chatbot: string; outcome: string; fields: string[] }[];
  }

  it('pushes once, not again until changed, again with --force; dry run sends nothing', async () => {
    await writeConfig('Alpha');
    const dry = await push('--dry-run');
    expect(dry.map((r) => r.outcome)).toEqual(['would-push', 'no-settings']);
    expect(server.requests).toHaveLength(0);

    const first = await push();
    expect(first.map((r) => r.outcome)).toEqual(['pushed', 'no-settings']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toBe('/chat/Chatbot/Edit');
    // Only the fields set in config, the language as a full name, the colour normalised.
    expect(server.requests[0]?.body).toEqual({
      serialNumber: 'BOT1',
      Name: 'Alpha',
      AIResponseLanguage: 'French',
      ChatBubbleColor: 'rgb(1,2,3)',
    });

    expect((await push()).map((r) => r.outcome)).toEqual(['unchanged', 'no-settings']);
    expect(server.requests).toHaveLength(1);

    await writeConfig('Beta');
    expect((await push('--chatbot', 'BOT1')).map((r) => r.outcome)).toEqual(['pushed']);
    expect(server.requests).toHaveLength(2);

    expect((await push('--chatbot', 'BOT1', '--force')).map((r) => r.outcome)).toEqual(['pushed']);
    expect(server.requests).toHaveLength(3);
  });

  it('names an unknown chatbot and an invalid setting in one line', async () => {
    await writeConfig('Alpha');
    await expect(push('--chatbot', 'NOPE')).rejects.toMatchObject({
      stderr: expect.stringMatching(/no chatbot "NOPE"/),
    });
    await writeConfig('Alpha', 'klingonish');
    await expect(push()).rejects.toMatchObject({
      stderr: expect.stringMatching(
        /chatbots\[0\]\.settings\.AIResponseLanguage: "klingonish" is not a language/,
      ),
    });
  });
});
