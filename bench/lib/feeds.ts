/**
 * Generated feeds for the benchmarks: a CSV with the acme fixture's columns (read with that feed's
 * mapping from fixtures/feeds/feed-sync.yaml) and an XML feed with its own mapping. Files are
 * cached in the temp folder by format and size, so a second bench run does not write them again.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export type Format = 'csv' | 'xml';
export const FORMATS: readonly Format[] = ['csv', 'xml'];

const CSV_HEADER =
  'MLS #,Status,Type,List Price,Beds,Baths Full,Baths Half,Sq Ft,Lot Acres,Year Built,DOM,Garage,Address,City,State,Zip,Remarks,Photos,Agent\n';

function csvRow(i: number): string {
  const price = `"$${(200_000 + (i % 900) * 1000).toLocaleString('en-US')}"`;
  return `B-${i},${i % 17 === 0 ? 'Active Under Contract' : 'Active'},Single Family,${price},${1 + (i % 5)},${1 + (i % 3)},${i % 2},"${1000 + (i % 3000)} sqft",0.${1 + (i % 9)},${1950 + (i % 70)},${i % 200},${i % 4},${i} Bench Street,Benchville,TX,7${String(i % 10000).padStart(4, '0')},"Remarks for listing ${i}, with a comma",https://img.bench.example/${i}/1.jpg|https://img.bench.example/${i}/2.jpg,Agent ${i % 50}\n`;
}

function xmlRecord(i: number): string {
  return `<Listing id="B-${i}"><Status>${i % 17 === 0 ? 'Active Under Contract' : 'Active'}</Status><Type>Single Family</Type><Price currency="USD">${200_000 + (i % 900) * 1000}</Price><Beds>${1 + (i % 5)}</Beds><Baths><Full>${1 + (i % 3)}</Full><Half>${i % 2}</Half></Baths><Size unit="sqft">${1000 + (i % 3000)}</Size><Lot unit="acres">0.${1 + (i % 9)}</Lot><YearBuilt>${1950 + (i % 70)}</YearBuilt><DOM>${i % 200}</DOM><Garage>${i % 4}</Garage><Address><Street>${i} Bench Street</Street><City>Benchville</City><State>TX</State></Address><Remarks><![CDATA[Remarks for listing ${i} & more]]></Remarks><Photos><Photo>https://img.bench.example/${i}/1.jpg</Photo><Photo>https://img.bench.example/${i}/2.jpg</Photo></Photos></Listing>\n`;
}

/** The generated feed of `count` records (written once, then reused). */
export async function generateFeed(format: Format, count: number): Promise<string> {
  const file = join(tmpdir(), `feed-sync-bench-${count}.${format}`);
  if (existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial`;
  const out = createWriteStream(partial);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(format === 'csv' ? CSV_HEADER : '<?xml version="1.0"?>\n<Listings>\n');
  for (let i = 0; i < count; i++) await write(format === 'csv' ? csvRow(i) : xmlRecord(i));
  if (format === 'xml') await write('</Listings>\n');
  out.end();
  await once(out, 'finish');
  renameSync(partial, file);
  return file;
}

/** The generated XML is no fixture's format: its own mapping. */
export const XML_MAPPING = {
  fields: {
    MLSNumber: '@id',
    Status: 'Status',
    SaleType: { const: 'for_sale' },
    PropertyType: 'Type',
    SalePrice: 'Price',
    CurrencySymbol: 'Price.@currency',
    Bedrooms: 'Beds',
    Bathrooms: { full: 'Baths.Full', half: 'Baths.Half' },
    BuildingArea: { from: 'Size', unitFrom: 'Size.@unit' },
    LotArea: { from: 'Lot', unitFrom: 'Lot.@unit' },
    YearBuilt: 'YearBuilt',
    DaysOnMarket: 'DOM',
    ParkingSpots: 'Garage',
    Address: 'Address.Street',
    City: 'Address.City',
    State: 'Address.State',
    Description: 'Remarks',
    Images: 'Photos.Photo',
    Url: { template: 'https://bench.example/l/{@id}' },
  },
};

const FIXTURE_CONFIG = resolve(import.meta.dirname, '../../fixtures/feeds/feed-sync.yaml');

/** The acme fixture's mapping, in config language, as the user wrote it. */
function acmeMapping(): unknown {
  const config = parse(readFileSync(FIXTURE_CONFIG, 'utf8')) as { feeds: { id: string; mapping: unknown }[] };
  const acme = config.feeds.find((f) => f.id === 'acme');
  if (!acme) throw new Error(`no acme feed in ${FIXTURE_CONFIG}`);
  return acme.mapping;
}

/** A feed entry of a config file (input form) for a generated file. */
export function feedEntry(
  format: Format,
  file: string,
  id: string,
  chatbot: string,
): Record<string, unknown> {
  const source =
    format === 'csv'
      ? { format, path: file, csv: { skipRows: 0 } }
      : { format, path: file, xml: { recordPath: 'Listings.Listing' } };
  return { id, chatbot, source, mapping: format === 'csv' ? acmeMapping() : XML_MAPPING };
}
