import { describe, expect, it } from 'vitest';
import { eachRecord } from '../../testing/each-record.ts';
import { readXml } from './read-xml.ts';

async function* chunks(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function records(xml: string, recordPath = 'propertyList.*', size = 7) {
  const out: Record<string, unknown>[] = [];
  for await (const record of eachRecord(
    readXml('f', chunks(xml, size), { recordPath, maxRecordBytes: 1 << 20 }),
  ))
    out.push({ ...record.fields });
  return out;
}

const BODY = '<propertyList><land status="current"><uniqueID>L1</uniqueID></land></propertyList>';

describe('readXml: a DOCTYPE as REAXML files are published', () => {
  it.each([
    '<!DOCTYPE propertyList SYSTEM "http://reaxml.realestate.com.au/propertyList.dtd">',
    "<!DOCTYPE propertyList PUBLIC '-//REA//DTD propertyList//EN' 'http://reaxml.example/p.dtd'>",
    '<!doctype propertyList>',
    '<!DOCTYPE propertyList SYSTEM "http://dtd.example/a>b.dtd" >',
  ])('accepts %s without fetching it (read in chunks of 1, 7 and the whole)', async (doctype) => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}\n${BODY}`;
    for (const size of [1, 7, xml.length]) {
      expect(await records(xml, 'propertyList.*', size)).toEqual([
        { uniqueID: 'L1', '@status': 'current', $tag: 'land' },
      ]);
    }
  });

  it.each([
    '<!DOCTYPE propertyList [ <!ENTITY a "b"> ]>',
    '<!DOCTYPE propertyList SYSTEM "http://x.example/p.dtd" [ <!ENTITY a SYSTEM "file:///etc/passwd"> ]>',
  ])('refuses an internal subset: %s', async (doctype) => {
    await expect(records(`${doctype}${BODY}`)).rejects.toMatchObject({
      code: 'E_FEED_UNSAFE',
      message: expect.stringMatching(/internal subset/),
    });
  });

  it('refuses a DOCTYPE after the root element starts', async () => {
    const xml = '<propertyList><!DOCTYPE x SYSTEM "y"><land/></propertyList>';
    await expect(records(xml)).rejects.toMatchObject({ code: 'E_FEED_PARSE' });
  });
});

describe('readXml: character references', () => {
  it('decodes decimal and hex references in text and attributes, and no more', async () => {
    const xml =
      '<root><property town="Espa&#241;a"><desc>Espa&#xF1;a &amp;#241; &lt;b&gt; &#8364;5 &#x1F3E0;</desc></property></root>';
    expect(await records(xml, 'root.property')).toEqual([
      // `&amp;#241;` is the text "&#241;", not ñ: references are decoded once.
      { desc: 'España &#241; <b> €5 🏠', '@town': 'España', $tag: 'property' },
    ]);
  });
});
