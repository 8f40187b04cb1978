import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, problemText } from './load.ts';
import { feedsAtOnce } from './worker-settings.ts';

const config = (worker: string, api = '') =>
  parseConfig(`api: { baseUrl: "http://127.0.0.1:4010"${api} }\nfeeds: []\nworker: ${worker}\n`);

describe('worker.concurrency (issue 23)', () => {
  it.each([
    // auto: 16 feeds per platform slot, within 32–128
    ['auto', 1, 32],
    ['auto', 2, 32],
    ['auto', 4, 64],
    ['auto', 8, 128],
    ['auto', 50, 128],
    // a number is that number, whatever the platform's budget
    [2, 8, 2],
    [100, 8, 100],
  ] as const)('%s with api.concurrency %i runs %i feeds at once', (concurrency, api, expected) => {
    expect(feedsAtOnce({ concurrency }, { concurrency: api })).toBe(expected);
  });

  it('is auto by default, from the api section, and a number when set', () => {
    const loaded = config('{}');
    expect(loaded.worker.concurrency).toBe('auto');
    expect(loaded.worker.maxHeapShare).toBe(0.6);
    expect(feedsAtOnce(loaded.worker, loaded.api)).toBe(128);
    const slow = config('{}', ', concurrency: 3');
    expect(feedsAtOnce(slow.worker, slow.api)).toBe(48);
    expect(config('{ concurrency: 4 }').worker.concurrency).toBe(4);
  });

  it.each([
    ['{ concurrency: atuo }', /^worker\.concurrency: expected auto or a whole number of feeds from 1 to 256/],
    ['{ concurrency: 0 }', /^worker\.concurrency: /],
    ['{ maxHeapShare: 1.5 }', /^worker\.maxHeapShare: /],
    ['{ maxHeapShar: 0.5 }', /^worker\.maxHeapShar: unknown key; did you mean maxHeapShare\?$/],
  ])('a typo is an error: %s', (worker, message) => {
    let error: unknown;
    try {
      config(worker);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).problems.map(problemText);
    expect(issues).toEqual([expect.stringMatching(message)]);
  });
});
