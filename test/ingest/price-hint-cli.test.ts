import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvFeedConfig, csvRow, HEADER, useCliFeed } from '../helpers/cli-feed.ts';

// An export whose prices did not come through (a tester: `validate` said nothing).
const t = useCliFeed((url) => csvFeedConfig(url, { id: 'homes', chatbot: 'SN-HOMES' }));

/** `rows` rows, those `priced` says with a price, the rest with the price cell empty. */
const csv = (rows: number, priced: (n: number) => boolean) =>
  HEADER +
  Array.from({ length: rows }, (_, i) => csvRow(i + 1, { price: priced(i + 1) ? 300_001 + i : '' })).join('');

describe('validate: most records without a price', () => {
  it('hints at the price column, and stays quiet over a few priced on request', async () => {
    await writeFile(
      join(t.dir, 'feed.csv'),
      csv(12, (n) => n > 9),
    );
    expect(await t.cli('validate', '--feed', 'homes')).toBe(0);
    expect(t.out()).toContain(
      'hint: 9 of 12 listings have no price (neither SalePrice nor RentPrice; the last record of each key): the chatbot cannot say what they cost',
    );
    expect(t.out()).toContain('fix: map the price column (mapping.fields.SalePrice');
    t.reset();
    expect(await t.cli('validate', '--feed', 'homes', '--json')).toBe(0);
    const [feed] = JSON.parse(t.out()).feeds;
    expect(feed.result.hints.map((h: { code: string }) => h.code)).toContain('no_price');
    t.reset();
    await writeFile(
      join(t.dir, 'feed.csv'),
      csv(12, (n) => n > 2),
    );
    expect(await t.cli('validate', '--feed', 'homes')).toBe(0);
    expect(t.out()).not.toContain('have no price');
  });

  it('counts the record each key keeps: an export whose every key comes unpriced, then priced, has its prices', async () => {
    const unpriced = csv(12, () => false).slice(HEADER.length);
    const priced = csv(12, () => true).slice(HEADER.length);
    await writeFile(join(t.dir, 'feed.csv'), HEADER + unpriced + priced);
    for (const args of [[], ['--json']]) {
      t.reset();
      expect(await t.cli('validate', '--feed', 'homes', ...args)).toBe(0);
      expect(t.out()).not.toContain('have no price');
    }
    await writeFile(join(t.dir, 'feed.csv'), HEADER + priced + unpriced);
    t.reset();
    expect(await t.cli('validate', '--feed', 'homes')).toBe(0);
    expect(t.out()).toContain('hint: 12 of 12 listings have no price');
  });
});
