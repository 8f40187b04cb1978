import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliFeed } from '../helpers/cli-feed.ts';

// An export whose price column the mapping does not map (a tester: `validate` said nothing).
const t = useCliFeed(
  (url) => `
api: { baseUrl: ${url} }
stateFile: state.json
feeds:
  - id: homes
    chatbot: SN-HOMES
    key: MLSNumber
    source: { format: csv, path: feed.csv }
    mapping:
      fields:
        MLSNumber: MLS
        Status: Status
        SaleType: { const: for_sale }
        PropertyType: Type
        CurrencySymbol: { const: "$" }
        Bedrooms: Beds
        Bathrooms: Baths
        Url: Url
        SalePrice: List Price
`,
);

const csv = (rows: number, priced: (n: number) => boolean) =>
  [
    'MLS,Status,Type,Beds,Baths,Url,List Price,Asking',
    ...Array.from({ length: rows }, (_, i) => {
      const n = i + 1;
      return `H-${n},Active,House,3,2,https://homes.example/${n},${priced(n) ? 300000 + n : ''},${300000 + n}`;
    }),
  ].join('\n') + '\n';

describe('validate: most records without a price', () => {
  it('hints at the price column the mapping missed, and stays quiet over a few priced on request', async () => {
    await writeFile(
      join(t.dir, 'feed.csv'),
      csv(12, (n) => n > 9),
    );
    expect(await t.cli('validate', '--feed', 'homes')).toBe(0);
    expect(t.out()).toContain(
      'hint: 9 of 12 valid records have no price (neither SalePrice nor RentPrice): the chatbot cannot say what they cost',
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
});
