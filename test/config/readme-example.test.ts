import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';

describe('the README', () => {
  it('shows a configuration that the loader accepts', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = /## Configuration[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const config = parseConfig(example ?? '', {
      env: {
        CHATBOT_SECRET_KEY: 'sk',
        CHATBOT_SESSION_KEY: 'sess',
        ALERT_WEBHOOK_URL: 'https://hooks.example/a',
      },
    });
    expect(config.feeds.map((f) => [f.id, f.mapping.preset, f.key])).toEqual([
      ['acme-mls', 'mls-csv', 'MLSNumber'],
    ]);
    expect(config.api).toMatchObject({
      secretKey: 'sk',
      sessionKey: 'sess',
      concurrency: 8,
      requestsPerSecond: 20,
    });
    expect(config.worker.alerts?.webhookUrl).toBe('https://hooks.example/a');
  });
});
