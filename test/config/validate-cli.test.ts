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
    // In file order, each at its line and column, so an editor jumps to it.
    expect(stderr.trimEnd().split('\n')).toEqual([
      `feed-sync: invalid config ${file} (3 problems):`,
      `  ${file}:2:3: api.baseURL: unknown key; did you mean baseUrl?`,
      `  ${file}:6:5: feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?`,
      `  ${file}:7:38: feeds[0].schedule.timezon: unknown key; did you mean timezone?`,
    ]);
  });

  it('names the line of each problem with --json, as fields too', async () => {
    const file = await configFile([
      'feeds:', // 1
      '  - id: acme', // 2
      '    chatbot: 4f1c', // 3
      '    source: { format: csv, path: acme.csv, encodng: latin1 }', // 4
      '    mapping:', // 5
      '      fields:', // 6
      '        Bedroms: Beds', // 7
      'wokrer: { concurrency: 2 }', // 8
      'api: { secretKey: k }', // 9
    ]);
    const { code, stdout } = await bin(['validate', '--config', file, '--json']);
    expect(code).toBe(2);
    const { config } = JSON.parse(stdout) as { config: { problems: unknown[]; issues: string[] } };
    expect(config.problems).toEqual([
      {
        path: 'feeds[0].source.encodng',
        message: 'unknown key',
        hint: 'did you mean encoding?',
        line: 4,
        column: 44,
      },
      {
        path: 'feeds[0].mapping.fields.Bedroms',
        message: 'unknown key',
        hint: 'did you mean Bedrooms?',
        line: 7,
        column: 9,
      },
      { path: 'wokrer', message: 'unknown key', hint: 'did you mean worker?', line: 8, column: 1 },
    ]);
    expect(config.issues).toEqual([
      `${file}:4:44: feeds[0].source.encodng: unknown key; did you mean encoding?`,
      `${file}:7:9: feeds[0].mapping.fields.Bedroms: unknown key; did you mean Bedrooms?`,
      `${file}:8:1: wokrer: unknown key; did you mean worker?`,
    ]);
    // `sync` and `plan` with --json print the same one document (a new user's got an empty stdout).
    for (const command of [
      ['sync', '--all'],
      ['plan', '--feed', 'acme'],
    ]) {
      const other = await bin([...command, '--config', file, '--json']);
      expect(other.code, command[0]).toBe(2);
      expect(JSON.parse(other.stdout), command[0]).toEqual({
        config: { ok: false, file, issues: config.issues, problems: config.problems },
      });
    }
  });

  it('checks the config offline; reading feeds is asked for with --feed or --feeds', async () => {
    // Both feeds point where nothing answers: a config check must not try them.
    const file = await configFile([
      'api: { secretKey: k }',
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
        /^feed-sync: invalid config: .*x\.yaml:3:14: api\.secretKey: is empty or blank[^\n]*\n$/,
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
          `${file}:1:1: wokrer: unknown key; did you mean worker?`,
          expect.stringMatching(/^.*x\.yaml:2:19: api\.secretKey: is empty or blank/),
        ],
        problems: [
          { path: 'wokrer', message: 'unknown key', hint: 'did you mean worker?', line: 1, column: 1 },
          {
            path: 'api.secretKey',
            message: expect.stringMatching(/^is empty or blank/),
            line: 2,
            column: 19,
          },
        ],
      },
    });
  });
});
