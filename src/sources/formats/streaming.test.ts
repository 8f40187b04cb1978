import { describe, expect, it } from 'vitest';
import { eachRecord } from '../../testing/each-record.ts';
import { readBlm } from './read-blm.ts';
import { readCsv } from './read-csv.ts';
import { readXml } from './read-xml.ts';

/** A feed that never ends: a reader that waited for the whole text would never yield. */
async function* endless(head: string, record: (i: number) => string): AsyncGenerator<string> {
  yield head;
  for (let i = 0; ; i++) yield record(i);
}

async function firstThree<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const record of records) {
    out.push(record);
    if (out.length === 3) break;
  }
  return out;
}

describe('sources stream record by record', () => {
  it('CSV', async () => {
    const text = endless('MLS #,Beds\n', (i) => `S-${i},${i % 5}\n`);
    const records = await firstThree(eachRecord(readCsv('endless', text)));
    expect(records.map((r) => [r.fields['MLS #'], r.row])).toEqual([
      ['S-0', 2],
      ['S-1', 3],
      ['S-2', 4],
    ]);
  });

  it('XML', async () => {
    const text = endless(
      '<?xml version="1.0"?><Listings>',
      (i) => `<Listing id="S-${i}"><Beds>2</Beds></Listing>`,
    );
    const records = await firstThree(
      eachRecord(readXml('endless', text, { recordPath: 'Listings.Listing', maxRecordBytes: 1 << 20 })),
    );
    expect(records.map((r) => r.fields['@id'])).toEqual(['S-0', 'S-1', 'S-2']);
  });

  it('BLM', async () => {
    const head = "#HEADER#\nVersion : 3\nEOF : '^'\nEOR : '~'\n#DEFINITION#\nAGENT_REF^BEDROOMS^~\n#DATA#\n";
    const text = endless(head, (i) => `S-${i}^${i % 5}^~\n`);
    const records = await firstThree(eachRecord(readBlm('endless', text)));
    expect(records.map((r) => [r.fields.AGENT_REF, r.row])).toEqual([
      ['S-0', 8],
      ['S-1', 9],
      ['S-2', 10],
    ]);
  });
});

describe('a CSV file read in one large first chunk', () => {
  /** ~100-character rows; row 40 holds a quoted line break, row 41 ends in CRLF: both near 4 KB. */
  const row = (i: number) => {
    const remarks = i === 40 ? '"two\nlines"' : `"Remarks ${i}, ${'x'.repeat(60)}"`;
    return `S-${i},${100_000 + i},${remarks}${i === 41 ? '\r\n' : '\n'}`;
  };
  const text = `MLS #,Price,Remarks\n${Array.from({ length: 600 }, (_, i) => row(i)).join('')}`;
  const oneChunk = async function* () {
    yield text;
  };

  it('gives its first records after the first 4 KB is read, not after the whole chunk', async () => {
    const batches: { key: unknown; row: number | undefined; remarks: unknown }[][] = [];
    for await (const batch of readCsv('big', oneChunk()))
      batches.push(batch.map((r) => ({ key: r.fields['MLS #'], row: r.row, remarks: r.fields.Remarks })));
    // The first batch: the rows inside the first 4,096 characters (~40), not a full batch of 64.
    const completeRows = text.slice(0, 4096).split('\n').length - 2;
    expect(batches[0]!.length).toBeGreaterThanOrEqual(completeRows - 1);
    expect(batches[0]!.length).toBeLessThanOrEqual(completeRows);
    expect(completeRows).toBeLessThan(64);
    // Every row once, in order, none cut at the seam: the quoted line break and the CRLF row too.
    const all = batches.flat();
    expect(all.map((r) => r.key)).toEqual(Array.from({ length: 600 }, (_, i) => `S-${i}`));
    expect(all[40]).toMatchObject({ remarks: 'two\nlines', row: 42 });
    expect(all[41]).toMatchObject({ key: 'S-41', row: 44 });
    expect(all[599]?.row).toBe(602);
  });
});
