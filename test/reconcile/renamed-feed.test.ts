import { describe, expect, it } from 'vitest';
import { csvFeedConfig, csvRow, useCliFeed } from '../helpers/cli-feed.ts';

// A feed renamed in the config: its listings carry the old id's owner tag. Through the real CLI.
const t = useCliFeed((url) =>
  csvFeedConfig(url, { id: 'acme', chatbot: 'RENAME-BOT', feed: 'maxDeleteShare: 0.5' }),
);
const row = (n: number, price = 300_000) => csvRow(n, { price, host: 'renamed.example' });
const cli = (...args: string[]) => t.cli(...args);
const owners = () =>
  t.sandbox
    .listings('RENAME-BOT')
    .map((l) => `${l.MLSNumber} ${l.ExtensionColumn?.find((e) => e.Key === 'feed-sync:feed')?.value}`)
    .sort();
const renamed = (feed: string) =>
  t.writeConfig(csvFeedConfig(t.sandbox.url, { id: 'acme-listings', chatbot: 'RENAME-BOT', feed }));

describe('a feed renamed in the config', () => {
  it('without adoptFrom: every key is skipped, loudly (partial, exit 4, a hint naming the fix); with it, its listings are its own again', async () => {
    await t.feed([1, 2, 3].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'acme')).toBe(0);
    expect(owners()).toEqual(['M-1 acme', 'M-2 acme', 'M-3 acme']);

    // Renamed, and M-2's price changed: the new id owns nothing, so nothing is written.
    await renamed('maxDeleteShare: 0.5');
    await t.feed([row(1), row(2, 250_000), row(3)].join(''));
    t.reset();
    expect(await cli('sync', '--feed', 'acme-listings', '--json')).toBe(4);
    const skipped = JSON.parse(t.out());
    expect(skipped).toMatchObject({ created: 0, updated: 0, skippedCount: 3, skippedUnknownOwner: 3 });
    expect(skipped.hints).toEqual([
      expect.objectContaining({
        code: 'unknown_owner',
        message: expect.stringContaining('3 listing(s) of this feed\'s keys are tagged for feed "acme"'),
        fix: expect.stringContaining('add `adoptFrom: [acme]` to feed "acme-listings"'),
      }),
    ]);
    // The plan a user looks at first says it too.
    t.reset();
    await cli('plan', '--feed', 'acme-listings');
    expect(t.out()).toContain('hint: 3 listing(s) of this feed\'s keys are tagged for feed "acme"');
    t.reset();
    expect(await cli('sync', '--feed', 'acme-listings')).toBe(4);
    expect(t.out()).toContain('acme-listings → RENAME-BOT: partial');
    expect(t.out()).toContain('hint: 3 listing(s)');

    // adoptFrom: each listing is written once, with the change and the new tag; none is duplicated.
    await renamed('adoptFrom: [acme]\n    maxDeleteShare: 0.5');
    t.reset();
    expect(await cli('sync', '--feed', 'acme-listings', '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({
      created: 0,
      updated: 3,
      adopted: 3,
      deleted: 0,
      skippedCount: 0,
    });
    expect(owners()).toEqual(['M-1 acme-listings', 'M-2 acme-listings', 'M-3 acme-listings']);
    expect(t.sandbox.listings('RENAME-BOT').find((l) => l.MLSNumber === 'M-2')?.SalePrice).toBe(250_000);

    // Then an ordinary feed: nothing to write, and a listing gone from it is deleted.
    await t.feed([row(1), row(2, 250_000)].join(''));
    t.reset();
    expect(await cli('sync', '--feed', 'acme-listings', '--json')).toBe(0);
    expect(JSON.parse(t.out())).toMatchObject({ created: 0, updated: 0, deleted: 1, unchanged: 2 });
  });

  it('a feed removed from the config leaves its listings: the feed that syncs the chatbot says so, and stays ok', async () => {
    await t.feed([1, 2].map((n) => row(n)).join(''));
    expect(await cli('sync', '--feed', 'acme')).toBe(0);
    // `acme` is gone from the config; `acme-listings` syncs other keys into the same chatbot.
    await renamed('maxDeleteShare: 0.5');
    await t.feed([row(10), row(11)].join(''));
    t.reset();
    expect(await cli('sync', '--feed', 'acme-listings', '--json')).toBe(0);
    const report = JSON.parse(t.out());
    expect(report).toMatchObject({ created: 2, foreign: 2, skippedCount: 0 });
    expect(report.skippedUnknownOwner).toBeUndefined();
    expect(report.hints).toEqual([
      expect.objectContaining({
        code: 'unknown_owner',
        message:
          '2 listing(s) on this chatbot are tagged for feed "acme", which this config does not have: no feed updates or deletes them',
      }),
    ]);
  });

  it('refuses an adoptFrom that names a feed of the config, or one two feeds claim', async () => {
    await t.writeConfig(
      `${csvFeedConfig(t.sandbox.url, { id: 'acme', chatbot: 'RENAME-BOT', feed: 'adoptFrom: [acme, old]' })}  - id: other
    chatbot: RENAME-BOT
    adoptFrom: [old]
    source: { format: csv, path: feed.csv }
`,
    );
    t.reset();
    expect(await cli('validate', '--feed', 'acme')).toBe(2);
    expect(t.err()).toContain('"acme" is this feed: adoptFrom names a former id, no feed has it now');
    expect(t.err()).toContain('"old" is adopted by feed "acme" too');
  });
});
