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
