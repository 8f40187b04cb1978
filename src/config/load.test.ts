import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './load.ts';

const feed = `
feeds:
  - id: acme-mls
    chatbot: 4f1c
    schedule: { cron: "0 */2 * * *", timezone: America/New_York }
    source: { format: csv, path: feeds/acme.csv }
`;

function issuesOf(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseConfig(text, { env });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  return [];
}

describe('parseConfig', () => {
  it('fills defaults and interpolates secrets from the environment', () => {
    const config = parseConfig(`api:\n  secretKey: \${KEY}\n  sessionKey: \${SESSION:-}\n${feed}`, {
      env: { KEY: 's3cret' },
      baseDir: '/etc/feed-sync',
    });
    expect(config.api).toMatchObject({
      baseUrl: 'https://usapi.hottask.com',
      secretKey: 's3cret',
      concurrency: 8,
      pageSize: 100,
    });
    expect(config.api.sessionKey).toBeUndefined();
    expect(config.feeds[0]).toMatchObject({
      id: 'acme-mls',
      key: 'MLSNumber',
      ownership: 'tagged',
      maxDeleteShare: 0.2,
    });
    expect(config.feeds[0]?.source.path).toBe('/etc/feed-sync/feeds/acme.csv');
  });

  it('names the key path of every error', () => {
    const issues = issuesOf(
      `api:\n  concurrency: 0\n  baseUrl: not a url\nfeeds:\n  - id: a\n    source: { format: tsv, path: x }\n`,
    );
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^api\.baseUrl: /),
        expect.stringMatching(/^api\.concurrency: /),
        expect.stringMatching(/^feeds\[0\]\.chatbot: /),
        expect.stringMatching(/^feeds\[0\]\.source\.format: /),
      ]),
    );
  });

  it('names a missing environment variable, never a value', () => {
    expect(issuesOf('api:\n  secretKey: ${NOPE}\n')).toEqual([
      'api.secretKey: environment variable NOPE is not set',
    ]);
  });

  it('refuses duplicate feed ids', () => {
    const issues = issuesOf(
      `${feed}  - id: acme-mls\n    chatbot: x\n    source: { format: csv, path: b.csv }\n`,
    );
    expect(issues).toEqual(['feeds[1].id: duplicate feed id "acme-mls"']);
  });

  it('accepts JSON too, and reports bad syntax in one line', () => {
    expect(parseConfig('{"feeds": []}').feeds).toEqual([]);
    expect(issuesOf('feeds: [\n')[0]).toMatch(/^not valid YAML or JSON/);
  });
});
