import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import { decodeText } from '../../src/sources/transports/decode-text.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';
import { fixture } from './helpers.ts';

const HEADER =
  'MLS #,Status,Type,List Price,Beds,Baths Full,Baths Half,Sq Ft,Lot Acres,Year Built,DOM,Garage,Address,City,State,Zip,Remarks,Photos,Agent';
const CITIES = ['Málaga', 'Zürich', 'São Paulo', 'Kraków', 'Montréal'];

/** Row `n` (file line n + 1) of a UTF-8 export, with accents, a "…" and a multi-line quoted remark. */
function row(n: number): string {
  const city = CITIES[n % CITIES.length]!;
  const remarks = n % 10 === 0 ? `"Café… near ${city}\nsecond line"` : `Piñata room… ${n}`;
  return `M-${n},Active,Single Family,${100_000 + n},3,2,1,1500,0.1,1990,5,1,${n} Calle Señor,${city},XX,00000,${remarks},https://img.example/${n}.jpg,José Núñez`;
}

describe('encoding: auto, decided per record', () => {
  it('reads one row with a stray Windows-1252 byte as 1252 and every other row as UTF-8', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row(i + 1));
    const bad = 437;
    // One row pasted in from a Windows export: "é" as the single byte 0xE9, not UTF-8's C3 A9.
    const parts = [Buffer.from(`${HEADER}\r\n`)];
    for (let n = 1; n <= rows.length; n++) {
      const text = `${rows[n - 1]!}\r\n`;
      parts.push(
        n === bad ? Buffer.from(text.replace('José', 'Jos\u0000'), 'utf8') : Buffer.from(text, 'utf8'),
      );
    }
    const bytes = Buffer.concat(parts);
    const at = bytes.indexOf(0, bytes.indexOf(Buffer.from(`M-${bad},`)));
    bytes[at] = 0xe9;
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-encoding-'));
    const path = join(dir, 'mixed.csv');
    await writeFile(path, bytes);

    const result = await ingestFeed(
      fixtureFeed('acme', {
        source: { path, csv: { skipRows: 0 } },
        mapping: { extensions: { fields: { Agent: 'Agent' } } },
      }),
      { state: {} },
    );
    expect(result.rejections).toEqual([]);
    expect(result.listings).toHaveLength(1000);
    // Row numbers count file lines: the header is line 1, and every tenth row spans two lines.
    const lineOf = (n: number) => 1 + n + Math.floor((n - 1) / 10);
    expect(result.decodedAs1252).toEqual([lineOf(bad)]);
    for (const listing of result.listings) {
      const n = Number(listing.MLSNumber.slice(2));
      const city = CITIES[n % CITIES.length]!;
      if (n === bad) {
        // The row's stray 0xE9 is read as Windows-1252 ("é"); its valid UTF-8 stays UTF-8.
        expect(listing.Address).toBe(`${n} Calle Señor`);
        expect(listing.ExtensionColumn).toEqual([{ Key: 'Agent', value: 'José Núñez' }]);
        continue;
      }
      // Every other row is UTF-8, untouched.
      expect(listing.City, `row ${n}`).toBe(city);
      expect(listing.Address, `row ${n}`).toBe(`${n} Calle Señor`);
      expect(listing.ExtensionColumn, `row ${n}`).toEqual([{ Key: 'Agent', value: 'José Núñez' }]);
      expect(listing.Description, `row ${n}`).toBe(
        n % 10 === 0 ? `Café… near ${city}\nsecond line` : `Piñata room… ${n}`,
      );
    }
  });

  it('decides XML line by line too, and names the file line', async () => {
    const xml = await readFile(fixture('xml/kyero.xml'), 'utf8');
    const lines = xml.split('\n');
    const towns = lines.flatMap((line, i) => (line.includes('<town>') ? [i] : []));
    expect(towns).toHaveLength(3);
    // The first and last town in UTF-8, the middle one as a Windows export wrote it (á = 0xE1).
    const parts = lines.map((line, i) => {
      if (!towns.includes(i)) return Buffer.from(`${line}\n`);
      if (i !== towns[1]) return Buffer.from(`    <town>Málaga</town>\n`);
      return Buffer.concat([Buffer.from('    <town>M'), Buffer.from([0xe1]), Buffer.from('laga</town>\n')]);
    });
    const path = join(await mkdtemp(join(tmpdir(), 'feed-sync-encoding-')), 'kyero.xml');
    await writeFile(path, Buffer.concat(parts));
    const result = await ingestFeed(fixtureFeed('kyero', { source: { path } }), { state: {} });
    const cities = Object.fromEntries(result.listings.map((l) => [l.MLSNumber, l.City]));
    expect(Object.values(cities).length).toBeGreaterThanOrEqual(2);
    expect(Object.values(cities).every((c) => c === 'Málaga')).toBe(true);
    expect(cities['KY-AL-02']).toBe('Málaga');
    expect(result.decodedAs1252).toEqual([towns[1]! + 1]);
  });

  it('reports nothing for a clean UTF-8 feed', async () => {
    const result = await ingestFeed(fixtureFeed('acme'), { state: {} });
    expect(result.decodedAs1252).toEqual([]);
  });

  it('reads a whole Windows-1252 export right, and names its rows', async () => {
    const result = await ingestFeed(fixtureFeed('euro-1252'), { state: {} });
    expect(result.listings.map((l) => l.City)).toContain('Málaga');
    expect(result.decodedAs1252!.length).toBeGreaterThan(0);
  });

  it('one stray byte in a one-line (minified) XML feed changes that byte only, however the download is chunked', async () => {
    const parts: Buffer[] = [];
    for (let i = 0; i < 200; i++) parts.push(Buffer.from(`<l><k>${i}</k><d>Café crème ${i}</d></l>`, 'utf8'));
    parts.splice(100, 0, Buffer.from([0x3c, 0x78, 0x3e, 0xe9, 0x3c, 0x2f, 0x78, 0x3e])); // <x>\xE9</x>
    const all = Buffer.concat(parts);
    const read = async (size: number) => {
      const chunks = (async function* () {
        for (let i = 0; i < all.length; i += size) yield all.subarray(i, i + size);
      })();
      let text = '';
      for await (const piece of decodeText(chunks, 'auto')) text += piece;
      return text;
    };
    const [a, b] = [await read(4096), await read(1500)];
    expect(a).toBe(b);
    expect(a).toContain('<x>é</x>');
    expect(a.match(/Café crème \d+/g)).toHaveLength(200);
  });
});
