import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/api/index.ts';
import { readSnapshot } from '../../src/reconcile/index.ts';
import { DEFAULT_FAULTS } from '../../src/sandbox/options.ts';
import { listing, listings } from '../../src/testing/listing.ts';
import { type Harness, startHarness, writes } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The chatbot holds exactly the feed: every key once, none missing. */
function expectExactly(harness: Harness, keys: string[]) {
  expect(harness.keys()).toEqual([...keys].sort());
}

describe('sync under faults', () => {
  it.each([
    ['10% HTTP 500', { error500Rate: 0.1 }],
    ['10% ambiguous creates', { ambiguousCreateRate: 0.1 }],
    ['10% malformed JSON', { malformedJsonRate: 0.1 }],
    ['429 bursts with Retry-After', { rate429Rate: 0.15, retryAfterSeconds: 0 }],
    ['hanging requests', { hangRate: 0.03, hangMs: 5000 }],
  ])('%s: converges with no duplicate and no lost listing', async (_, faults) => {
    h = await startHarness(
      [{}],
      { faults, seed: 7 },
      { concurrency: 4, pageSize: 25, timeoutMs: 250, retries: 6 },
    );
    const feed = listings(1, 80);
    const first = await h.sync(h.feed(), feed);
    expect(Object.values(h.sandbox.stats().faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(first.failed).toEqual([]);
    expect(first.outcome).toBe('ok');
    expectExactly(
      h,
      feed.map((l) => l.MLSNumber),
    );
    const changed = [
      ...listings(1, 75).map((l, i) => (i % 10 === 0 ? { ...l, SalePrice: 1 } : l)),
      listing(81),
    ];
    const second = await h.sync(h.feed(), changed);
    expect(second.outcome).toBe('ok');
    expectExactly(
      h,
      changed.map((l) => l.MLSNumber),
    );
    // Retries, Retry-After pauses and timed-out hangs included: never more than api.concurrency at once.
    expect(h.sandbox.stats().peakInFlight).toBeLessThanOrEqual(4);
    h.sandbox.configure({
      faults: { error500Rate: 0, rate429Rate: 0, hangRate: 0, malformedJsonRate: 0, ambiguousCreateRate: 0 },
    });
    expect(writes(await h.sync(h.feed(), changed))).toBe(0);
  });

  it('honours Retry-After on a 429 burst: the whole client waits, then converges', async () => {
    h = await startHarness(
      [{}],
      { faults: { rate429Rate: 0.1, retryAfterSeconds: 1 }, seed: 11 },
      { concurrency: 4 },
    );
    const report = await h.sync(h.feed(), listings(1, 20));
    const throttled = h.sandbox.stats().faults.rate429;
    expect(throttled).toBeGreaterThan(0);
    expect(h.sandbox.stats().peakInFlight).toBeLessThanOrEqual(4);
    expect(report.durationMs).toBeGreaterThanOrEqual(1000);
    expect(report).toMatchObject({ outcome: 'ok', created: 20 });
    expectExactly(
      h,
      listings(1, 20).map((l) => l.MLSNumber),
    );
  });

  it('resolves ambiguous creates by looking them up, not by creating twice', async () => {
    h = await startHarness([{}], { faults: { ambiguousCreateRate: 0.5 }, seed: 3 }, { concurrency: 4 });
    const report = await h.sync(h.feed(), listings(1, 30));
    expect(report.ambiguousResolved).toBeGreaterThan(0);
    expect(h.sandbox.stats().peakInFlight).toBeLessThanOrEqual(4);
    expect(report.created).toBe(30);
    expectExactly(
      h,
      listings(1, 30).map((l) => l.MLSNumber),
    );
    // Each listing looked up was compared with the feed's record, as the feed has it: nothing left
    // to write (a create in doubt parses the record it sent as JSON text only then).
    const again = await h.sync(h.feed(), listings(1, 30));
    expect(again).toMatchObject({ outcome: 'ok', created: 0, updated: 0, unchanged: 30 });
  });

  it('never has more requests in flight than api.concurrency, whatever the mix', async () => {
    h = await startHarness([{}], { latencyMs: 10 }, { concurrency: 3, pageSize: 10, deleteBatchSize: 5 });
    await h.sync(h.feed(), listings(1, 60));
    expect(h.sandbox.stats().peakInFlight).toBe(3);
    h.sandbox.resetStats();
    const mixed = [
      ...listings(1, 40).map((l, i) => (i % 2 ? { ...l, SalePrice: 2 } : l)),
      ...listings(61, 80),
    ];
    await h.sync(h.feed(), mixed, { allowMassDelete: true });
    const stats = h.sandbox.stats();
    expect(stats.peakInFlight).toBeLessThanOrEqual(3);
    expect(stats.requests).toMatchObject({ create: 20, update: 20, delete: 4 });
  });

  it('cancelled mid-apply: stops issuing, reports what was not applied; the next run repairs', async () => {
    h = await startHarness([{}], { latencyMs: 5 }, { concurrency: 2 });
    const controller = new AbortController();
    // The feed from its last listing to its first: creates go in the feed's order, and what was
    // not applied is reported in key order all the same.
    const report = await h.sync(
      h.feed(),
      listings(1, 60).reverse(),
      {},
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'applying' && p.done === 20) controller.abort();
        },
      },
    );
    expect(report.outcome).toBe('cancelled');
    const missing = report.notApplied?.creates ?? [];
    expect(missing.length).toBeGreaterThan(0);
    expect(missing).toEqual([...missing].sort());
    // The first listings of the feed were created: the last keys.
    expect(h.keys()).toContain(listings(60, 60)[0]?.MLSNumber);
    expect(report.created + missing.length).toBe(60);
    expect(h.keys()).toHaveLength(report.created);
    expect((await h.state.getFeed('feed1')).lastReport).toMatchObject({ outcome: 'cancelled' });
    const repair = await h.sync(h.feed(), listings(1, 60));
    expect(repair).toMatchObject({ outcome: 'ok', created: missing.length, unchanged: report.created });
    expectExactly(
      h,
      listings(1, 60).map((l) => l.MLSNumber),
    );
  });

  it('a platform that refuses every write: each one counted, the first 1,000 reported, the run goes on to the end', async () => {
    h = await startHarness(
      [{}],
      { latencyMs: 0, faults: { ...DEFAULT_FAULTS, refuseRate: 1 } },
      { concurrency: 8 },
    );
    const report = await h.sync(h.feed(), listings(1, 2500));
    expect(report).toMatchObject({
      outcome: 'failed',
      created: 0,
      failedCount: 2500,
      reason: '2500 write(s) failed',
    });
    expect(report.failed).toHaveLength(1000);
    expect(report.failed.map((f) => f.key)).toEqual(
      listings(1, 2500)
        .map((l) => l.MLSNumber)
        .sort()
        .slice(0, 1000),
    );
    expect(report.failed[0]?.message).toBe(
      'create: platform answered Code 400: Invalid listing (sandbox fault: refuseRate)',
    );
    // Not the key: every write was tried.
    expect(h.sandbox.stats().requests.create).toBe(2500);
    h.sandbox.configure({ faults: { refuseRate: 0 } });
    expect(await h.sync(h.feed(), listings(1, 2500))).toMatchObject({ outcome: 'ok', created: 2500 });
  });

  it("sends the feed's records as checked at ingest, and a listing marked Sold checked whole", async () => {
    const harness = await startHarness([{ gone: { action: 'markSold', afterDays: 30 } }], { latencyMs: 0 });
    h = harness;
    const base = harness.client;
    const sent: string[] = [];
    const client: typeof base = {
      ...base,
      createListing: (request, options) => {
        sent.push(`create ${request.MLSNumber} ${options?.listingChecked === true ? 'as checked' : 'whole'}`);
        return base.createListing(request, options);
      },
      // The record as the run's store kept it: sent as that text, never parsed and serialized again.
      createListingJson: (serialNumber, json, options) => {
        const { MLSNumber } = JSON.parse(json) as { MLSNumber: string };
        sent.push(`create ${MLSNumber} as kept${options?.listingChecked === true ? ', as checked' : ''}`);
        return base.createListingJson(serialNumber, json, options);
      },
      updateListing: (request, options) => {
        sent.push(`update ${request.MLSNumber} ${options?.listingChecked === true ? 'as checked' : 'whole'}`);
        return base.updateListing(request, options);
      },
      updateListingJson: (serialNumber, key, json, options) => {
        const { MLSNumber } = JSON.parse(json) as { MLSNumber: string };
        sent.push(`update ${MLSNumber} as kept${options?.listingChecked === true ? ', as checked' : ''}`);
        return base.updateListingJson(serialNumber, key, json, options);
      },
    };
    expect((await harness.sync(harness.feed(), listings(1, 20), {}, { client })).created).toBe(20);
    expect(sent).toHaveLength(20);
    expect(sent.every((call) => call.startsWith('create ') && call.endsWith(' as kept, as checked'))).toBe(
      true,
    );
    // Listing 2's price changes; listing 20 leaves the feed and is marked Sold from the platform's record.
    const next = listings(1, 19).map((l, i) => (i === 1 ? { ...l, SalePrice: 1 } : l));
    sent.length = 0;
    const report = await harness.sync(harness.feed(), next, {}, { client });
    expect(report).toMatchObject({ outcome: 'ok', updated: 2, markedSold: 1 });
    // The changed record as its store kept it; the Sold one, the platform's own record, checked whole.
    expect(sent.sort()).toEqual(['update MLS-0002 as kept, as checked', 'update MLS-0020 whole']);
  });

  it('records the platform forbids (403) fail alone, first in the feed or not: the rest are written', async () => {
    const harness = await startHarness([{}], { latencyMs: 0 }, { concurrency: 1 });
    h = harness;
    const base = harness.client;
    const forbidden = new Set(listings(1, 3).map((l) => l.MLSNumber));
    const client: typeof base = {
      ...base,
      createListingJson: (serialNumber, json, options) =>
        forbidden.has((JSON.parse(json) as { MLSNumber: string }).MLSNumber)
          ? Promise.reject(new PlatformError('create', 403, 'Forbidden by a content rule'))
          : base.createListingJson(serialNumber, json, options),
    };
    const report = await harness.sync(harness.feed(), listings(1, 50), {}, { client });
    expect(report).toMatchObject({
      outcome: 'failed',
      created: 47,
      failedCount: 3,
      reason: '3 write(s) failed',
    });
    expect(report.notApplied).toBeUndefined();
  });

  it('a report lists the first 1,000 keys not applied, in key order, and counts them all', async () => {
    h = await startHarness([{}], { latencyMs: 2 }, { concurrency: 2 });
    const controller = new AbortController();
    const report = await h.sync(
      h.feed(),
      listings(1, 1500),
      {},
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'applying' && p.done === 10) controller.abort();
        },
      },
    );
    expect(report.outcome).toBe('cancelled');
    const n = report.notApplied;
    const left = 1500 - report.created;
    expect(n?.counts).toEqual({ creates: left, updates: 0, deletes: 0 });
    expect(n?.creates).toHaveLength(1000);
    expect(n?.creates).toEqual([...(n?.creates ?? [])].sort());
    expect(report.reason).toBe(
      `cancelled: ${left} listing(s) not written (${left} creates); the next run repairs them`,
    );
  });

  it('a key refused mid-run stops the writing at once, says so, and the next run with a key accepted repairs', async () => {
    h = await startHarness(
      [{}],
      { latencyMs: 2, secretKey: 'key-one' },
      { concurrency: 4, secretKey: 'key-one' },
    );
    const report = await h.sync(
      h.feed(),
      listings(1, 200),
      {},
      {
        onProgress: (p) => {
          // The platform rotates the key: every write after this is refused.
          if (p.phase === 'applying' && p.done === 40) h?.sandbox.configure({ secretKey: 'key-two' });
        },
      },
    );
    expect(report.outcome).toBe('failed');
    expect(report.reason).toMatch(
      /^the platform refused the API key for 3 writes in a row \(create: platform answered Code 401: .*\): writing stopped; \d+ listing\(s\) not written \(\d+ creates?\), besides the \d+ that failed: the next run writes them once the key is accepted$/,
    );
    // The writes in flight when the key went, and no more: not one refused request for each listing left.
    const refused = report.failed.filter((f) => f.message.includes('Code 401'));
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(refused.length).toBeLessThanOrEqual(3 + 4);
    expect(report.failed).toHaveLength(refused.length);
    const missing = report.notApplied?.creates ?? [];
    expect(report.created + refused.length + missing.length).toBe(200);
    expect(h.sandbox.stats().requests.create).toBe(report.created + refused.length);
    expect(h.keys()).toHaveLength(report.created);
    // The key accepted again: the next run creates what was refused or not issued, nothing twice.
    h.sandbox.configure({ secretKey: 'key-one' });
    const repair = await h.sync(h.feed(), listings(1, 200));
    expect(repair).toMatchObject({ outcome: 'ok', created: 200 - report.created, unchanged: report.created });
    expectExactly(
      h,
      listings(1, 200).map((l) => l.MLSNumber),
    );
  });

  it('turns a runaway page read into an error, never a partial snapshot', async () => {
    h = await startHarness([{}], {}, { pageSize: 1 });
    h.sandbox.seed('SN-1', listings(1, 3));
    await expect(
      readSnapshot(h.client, { chatbot: 'SN-1', pageSize: 1, concurrency: 2, maxPages: 2 }),
    ).rejects.toThrow(/hard limit of 2 pages/);
  });
});
