import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ok, sendJson, withServer } from '../helpers/with-server.ts';

const NODE = join(process.cwd(), 'node_modules/.bin/node');

/** The real binary, as a user runs it. */
function bin(args: string[], env: Record<string, string> = {}) {
  const options = { timeout: 20_000, env: { ...process.env, ...env } };
  return promisify(execFile)(NODE, ['bin/feed-sync.js', ...args], options).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

async function configFile(lines: string[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'feed-sync-validate-')), 'x.yaml');
  await writeFile(file, lines.join('\n'));
  return file;
}

describe('feed-sync validate on the config', () => {
  it('prints every typo at once, one line each, with the nearest valid key', async () => {
    const file = await configFile([
      'api:',
      '  baseURL: https://usapi.example.com',
      'feeds:',
      '  - id: acme',
      '    chatbot: 4f1c',
      '    maxDeleteShar: 0.05',
      '    schedule: { cron: "0 */2 * * *", timezon: America/New_York }',
      '    source: { format: csv, path: acme.csv }',
    ]);
    const { code, stdout, stderr } = await bin(['validate', '--config', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toEqual([
      `feed-sync: invalid config ${file} (3 problems):`,
      '  api.baseURL: unknown key; did you mean baseUrl?',
      '  feeds[0].schedule.timezon: unknown key; did you mean timezone?',
      '  feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?',
    ]);
  });

  it('checks the config offline; reading feeds is asked for with --feed or --feeds', async () => {
    // Both feeds point where nothing answers: a config check must not try them.
    const file = await configFile([
      'feeds:',
      '  - id: far',
      '    chatbot: 4f1c',
      '    source: { format: csv, url: "http://127.0.0.1:9/feed.csv", retries: 0 }',
      '  - id: gone',
      '    chatbot: 4f1c',
      '    source: { format: csv, path: no-such-file.csv }',
    ]);
    const ok = await bin(['validate', '--config', file]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^✓ .*x\.yaml: 2 feeds \(far, gone\), 0 chatbots; read a feed with --feed ID/);
    const json = await bin(['validate', '--config', file, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      config: { ok: true, file, feeds: ['far', 'gone'], chatbots: 0 },
    });
    const one = await bin(['validate', '--config', file, '--feed', 'gone']);
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/^✗ gone: E_FEED_FETCH .*file not found/);
    const all = await bin(['validate', '--config', file, '--feeds', '--json']);
    expect(all.code).toBe(1);
    const feeds = (JSON.parse(all.stdout) as { feeds: { feedId: string; code: string }[] }).feeds;
    expect(feeds.map((f) => [f.feedId, f.code])).toEqual([
      ['far', 'E_FEED_FETCH'],
      ['gone', 'E_FEED_FETCH'],
    ]);
  });

  it('refuses an empty platform key at start, in one line, before any request', async () => {
    const platform = await withServer((_req, res) => sendJson(res, 200, ok({ List: [], VirtualCount: 0 })));
    try {
      const file = await configFile([
        'api:',
        `  baseUrl: ${platform.url}`,
        '  secretKey: ${CHATBOT_SECRET_KEY}',
        'feeds:',
        '  - id: acme',
        '    chatbot: 4f1c',
        '    source: { format: csv, path: acme.csv }',
      ]);
      const { code, stderr } = await bin(['sync', '--all', '--config', file], { CHATBOT_SECRET_KEY: ' ' });
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /^feed-sync: invalid config: .*x\.yaml: api\.secretKey: is empty or blank[^\n]*\n$/,
      );
      expect(platform.requests).toEqual([]);
    } finally {
      await platform.close();
    }
  });

  it('prints the problems as JSON with --json', async () => {
    const file = await configFile(['wokrer: {}', 'api: { secretKey: "  " }']);
    const { code, stdout } = await bin(['validate', '--config', file, '--json']);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toEqual({
      config: {
        ok: false,
        file,
        issues: [
          expect.stringMatching(/^api\.secretKey: is empty or blank/),
          'wokrer: unknown key; did you mean worker?',
        ],
      },
    });
  });
});
