import type { XMLParser } from 'fast-xml-parser';
import type { RawFields } from '../../normalize/index.ts';
import { FeedError } from '../feed-error.ts';
import type { XmlOptions } from '../source-schema.ts';
import type { RawRecord } from '../source-types.ts';
import { batchOf } from './batch.ts';
import { XmlRecordSplitter, XmlSplitError } from './xml-splitter.ts';

const XML_ENTITIES = { amp: '&', apos: "'", gt: '>', lt: '<', quot: '"' };

/** The element name of a record (`residential`, `rental` in REAXML), for mappings to read. */
export const TAG_FIELD = '$tag';
/** The default namespace of the document's root (ListHub's schema version), when it declares one. */
export const NAMESPACE_FIELD = '$xmlns';

async function createParser(): Promise<XMLParser> {
  // Loaded by the first XML feed read, not by every start.
  const { XMLParser } = await import('fast-xml-parser');
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // Only the five XML entities exist here (the splitter refuses any DOCTYPE that could declare
    // more), plus numeric character references (`&#241;`, `&#xF1;`), which XML always allows. An
    // object for htmlEntities is the decoder's whole table of names, and allows numeric references.
    processEntities: true,
    // (typed boolean, but fast-xml-parser 5 takes the table: see OrderedObjParser's entityDecoder)
    htmlEntities: XML_ENTITIES as unknown as boolean,
  });
}

/** XML text → one raw record per element at `recordPath`, parsed one at a time, a batch per chunk. */
export async function* readXml(
  feedId: string,
  text: AsyncIterable<string>,
  options: XmlOptions & { recordPath: string },
): AsyncGenerator<RawRecord[]> {
  const splitter = new XmlRecordSplitter(options.recordPath, options.maxRecordBytes);
  const parser = await createParser();
  let index = 0;
  try {
    for await (const chunk of text) {
      yield* batchOf(splitter.push(chunk), (xml) => {
        const fields = parseRecord(parser, xml, feedId, index, splitter.rootNamespace);
        return { index: index++, fields };
      });
    }
    splitter.end();
  } catch (error) {
    if (error instanceof XmlSplitError) {
      const code = error.unsafe ? 'E_FEED_UNSAFE' : 'E_FEED_PARSE';
      throw new FeedError(code, feedId, `${error.message} (after ${splitter.recordsCut} records)`, {
        cause: error,
      });
    }
    throw error;
  }
}

function parseRecord(
  parser: XMLParser,
  xml: string,
  feedId: string,
  index: number,
  namespace: string | undefined,
): RawFields {
  let parsed: Record<string, unknown>;
  try {
    parsed = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    throw new FeedError(
      'E_FEED_PARSE',
      feedId,
      `record ${index + 1} is not well-formed XML: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const [tag] = Object.keys(parsed);
  const value = tag === undefined ? undefined : parsed[tag];
  const fields =
    value && typeof value === 'object' ? (value as Record<string, unknown>) : { '#text': value ?? '' };
  fields[TAG_FIELD] = tag ?? '';
  if (namespace !== undefined) fields[NAMESPACE_FIELD] = namespace;
  return fields;
}
