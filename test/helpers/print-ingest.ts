/**
 * `node test/helpers/print-ingest.ts FEED_ID`: the ingest of a fixture feed as JSON on stdout, for
 * tests that run the ingest in a Node with other flags.
 */
import { ingestFeed } from '../../src/ingest/index.ts';
import { fixtureFeed } from './fixture-feeds.ts';

const result = await ingestFeed(fixtureFeed(process.argv[2] ?? 'acme'), {
  state: {},
  now: () => new Date(0),
});
const { listings, rejections, held, stats } = result;
process.stdout.write(JSON.stringify({ listings, rejections, held, stats }));
