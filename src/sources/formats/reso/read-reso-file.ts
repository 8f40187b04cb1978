import { FeedError } from '../../feed-error.ts';
import type { RawRecord } from '../../source-types.ts';
import { batchOf } from '../batch.ts';
import { JsonArraySplitter } from './json-array-splitter.ts';
import { notViewable } from './profiles.ts';

/** A RESO JSON file (an OData page saved to disk, or a bare array of records), streamed: a batch per chunk. */
export async function* readResoFile(
  feedId: string,
  text: AsyncIterable<string>,
): AsyncGenerator<RawRecord[]> {
  const splitter = new JsonArraySplitter();
  let index = 0;
  try {
    for await (const chunk of text) {
      yield* batchOf(splitter.push(chunk), (json) => {
        const fields = JSON.parse(json) as Record<string, unknown>;
        // MLS Grid's deletion marker, as the API reader honours it: the listing must not be shown.
        const removed = notViewable(fields);
        return { index: index++, fields, ...(removed ? { removed: true as const } : {}) };
      });
    }
    splitter.end();
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new FeedError(
      'E_FEED_PARSE',
      feedId,
      `not valid RESO JSON: ${error.message} (after ${index} records)`,
      {
        cause: error,
      },
    );
  }
}
