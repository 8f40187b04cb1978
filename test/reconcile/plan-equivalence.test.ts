import { afterEach, describe, expect, it } from 'vitest';
import { canonicalizeRemote, type RemoteListing } from '../../src/api/index.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Listing } from '../../src/normalize/index.ts';
import {
  DEFAULT_HASH_KEY,
  type Plan,
  planListings,
  policyOf,
  prepareRun,
  withTags,
} from '../../src/reconcile/index.ts';
import { listing } from '../../src/testing/listing.ts';
import { recordsFeed } from '../../src/testing/records-feed.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * The plan is `planListings(desired, remote, policy)` over whole listings. A run makes it without
 * holding either side (digests in columns, the platform's pages compared as they arrive): for any
 * chatbot and feed, the run's plan must be that one. Seeded scenarios: listings of this feed (some
 * changed, duplicated, gone), of another feed, hand-added ones, with and without the gone policy.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const tags = { ownerKey: 'feed-sync:feed', hashKey: DEFAULT_HASH_KEY };

/** A chatbot and a feed drawn from `seed`: what is on the platform, and what the feed says now. */
function scenario(seed: number): { platform: Listing[]; feed: Listing[] } {
  const next = random(seed);
  const platform: Listing[] = [];
  const feed: Listing[] = [];
  for (let n = 1; n <= 60; n++) {
    const roll = next();
    const mine = withTags(listing(n), 'feed1', tags);
    if (roll < 0.45) {
      platform.push(mine);
      feed.push(listing(n));
    } else if (roll < 0.55) {
      platform.push(mine);
      feed.push(listing(n, { SalePrice: 100_000 + n, Bedrooms: 5 }));
    } else if (roll < 0.65) platform.push(mine);
    else if (roll < 0.7) {
      platform.push(mine, mine);
      feed.push(listing(n));
    } else if (roll < 0.78) feed.push(listing(n));
    else if (roll < 0.84) {
      platform.push(listing(n));
      feed.push(listing(n, { City: 'Shelbyville' }));
    } else if (roll < 0.9) platform.push(withTags(listing(n), 'feed2', tags));
    else if (roll < 0.95) {
      platform.push(withTags(listing(n), 'feed2', tags));
      feed.push(listing(n));
    } else platform.push(listing(n));
  }
  return { platform, feed };
}

/** A plan as data, without where the run keeps its records. */
function shape(plan: Plan) {
  return {
    creates: Array.from(plan.creates, (c) => c.key),
    updates: Array.from(plan.updates, (u) => ({ key: u.key, id: u.id, adopt: u.adopt, changes: u.changes })),
    deletes: Array.from(plan.deletes),
    heldDeletes: Array.from(plan.heldDeletes),
    unchanged: [...plan.unchanged],
    held: plan.held,
    foreign: plan.foreign,
    skipped: plan.skipped,
    grace: Array.from(plan.grace),
    guards: plan.guards,
    ownedCount: plan.ownedCount,
  };
}

describe('the run plans as planListings does', () => {
  it.each([1, 2, 3, 4, 5, 6])('scenario %i, and with gone.action markSold', async (seed) => {
    const { platform, feed } = scenario(seed);
    for (const gone of [undefined, { action: 'markSold' as const, afterDays: 30 }]) {
      h = await startHarness(
        [{ maxDeleteShare: 1, ...(gone ? { gone } : {}) }],
        { latencyMs: 0 },
        { pageSize: 7 },
      );
      h.sandbox.seed('SN-1', platform);
      const now = new Date('2026-11-10T00:00:00Z');
      const prepared = await prepareRun(h.config, h.feed(), h.client, {
        client: h.client,
        state: h.state,
        logger: silentLogger,
        open: recordsFeed(feed),
        now: () => now,
      });
      if (prepared.kind !== 'planned') throw new Error(`not planned: ${prepared.kind}`);
      prepared.close();

      const remote: RemoteListing[] = [];
      const first = await h.client.listListings({ SerialNumber: 'SN-1', PageNumber: 1, PageSize: 1000 });
      for (const record of first.List) remote.push(canonicalizeRemote(record));
      const ingest = {
        mode: 'full' as const,
        removals: [],
        held: [],
        rejectedWithoutKey: 0,
        stats: { records: feed.length, valid: feed.length, rejected: 0, removed: 0, duplicates: 0 },
      };
      const policy = policyOf(h.config, h.feed(), ingest, {}, { now });
      const expected = planListings(feed, remote, policy);
      expect(shape(prepared.plan)).toEqual(shape(expected));
      // The scenario has every kind of change in it, or the comparison would prove little.
      if (!gone) {
        expect(expected.creates.length * expected.updates.length * expected.deletes.length).toBeGreaterThan(
          0,
        );
        expect(expected.foreign.length + expected.skipped.length).toBeGreaterThan(0);
      } else expect([...expected.updates].some((u) => u.markSold)).toBe(true);
      await h.close();
      h = undefined;
    }
  });
});
