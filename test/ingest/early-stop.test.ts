import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFeed } from '../../src/ingest/index.ts';
import { FIXTURE_FEED_IDS, fixtureFeed } from '../helpers/fixture-feeds.ts';

/** Open file descriptors of this process (Linux). */
const openFds = () => readdirSync('/proc/self/fd').length;
const settle = () => new Promise((done) => setTimeout(done, 50));

describe.skipIf(!existsSync('/proc/self/fd'))(
  'a reader stopped after its first record closes its source',
  () => {
    // One feed of each format: CSV (its header read ahead), XML, OpenImmo (its scope peeked at), RESO, BLM.
    const feeds = ['acme', 'generic-xml', 'openimmo', 'reso', 'blm'].filter((id) =>
      FIXTURE_FEED_IDS.includes(id),
    );

    it.each(feeds)('%s', async (id) => {
      const feed = fixtureFeed(id);
      // Once first, so whatever the first read opens for good (module state) is not counted.
      for await (const _ of readFeed(feed, { state: {} })) break;
      await settle();
      const before = openFds();
      for (let i = 0; i < 10; i++) {
        let read = 0;
        for await (const _ of readFeed(feed, { state: {} })) if (++read === 1) break;
        expect(read).toBe(1);
      }
      await settle();
      expect(openFds()).toBe(before);
    });
  },
);
