import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../reconcile/index.ts';
import { REPORT_AT as at, runReport } from '../../testing/run-report.ts';
import { feedPage } from './feed-page.ts';
import { recordCounts } from './feed-summary.ts';

const base: RunReport = runReport();

const page = (run: RunReport, ...more: RunReport[]) =>
  String(
    feedPage({
      summary: {
        id: 'acme',
        chatbot: 'BOT',
        enabled: true,
        outcome: 'guard tripped',
        stale: false,
        attention: true,
      },
      runs: [run, ...more],
      selected: 0,
      readOnly: false,
      now: at,
    }),
  );

describe('feedPage', () => {
  it('says where runs made from the command line come from, and only then', () => {
    const fromCli = { ...base, fromStateFile: true } as RunReport;
    expect(page(fromCli)).toContain(
      "from the command line (the config's state file): no worker has run this feed yet",
    );
    expect(page(base)).not.toContain('from the command line');
    expect(page(base)).not.toContain('command line</span>');
    // Beside the worker's runs, each of its rows is marked.
    const mixed = page(base, fromCli);
    expect(mixed).not.toContain('no worker has run this feed yet');
    expect(mixed).toContain('were made with <span class="mono">feed-sync sync</span>');
    expect(mixed.match(/<span class="flag">command line<\/span><\/td>/g)).toHaveLength(1);
  });

  it('a skipped run is said without the compare it did not make (a tester: "skipped · … · full compare")', () => {
    const skipped = {
      ...base,
      outcome: 'skipped',
      mode: 'full',
      reason: 'the feed has not changed',
    } as RunReport;
    expect(page(skipped)).not.toContain('full compare');
    expect(page({ ...base, mode: 'full' } as RunReport)).toContain(' · full compare');
  });

  it('says what the CLI report says of the feed beside its listings (a new user missed it on the page), and counts only listings as accepted', () => {
    const run: RunReport = {
      ...base,
      read: 12,
      rejected: 1,
      removals: 2,
      duplicates: 1,
      unknownMarkers: { YearBuilt: 4 },
      droppedImages: 3,
      removalsElsewhere: { count: 1, owners: ['oi'] },
      rejections: [
        {
          feedId: 'acme',
          index: 4,
          key: 'K-5',
          field: 'Bedrooms',
          value: 'x',
          reason: 'not_a_number',
          message: 'Record 5 of acme.xml: Bedrooms "x" is not a number',
        },
      ],
    };
    const text = page(run);
    expect(text).toContain('<h3>Read in the feed</h3>');
    expect(text).toContain('2 record(s) said their listing left the market');
    expect(text).toContain('unknown (0, the feed has no value): YearBuilt 4');
    expect(text).toContain('3 image URL(s) dropped');
    expect(text).toContain(
      '1 removal(s) the feed states name listings this feed does not own (feed &quot;oi&quot;)',
    );
    expect(text).toContain('1 record(s) repeated the key of an earlier one');
    // An XML feed has records, not rows.
    expect(text).toMatch(/<table class="rejections"><thead><tr><th class="num">Record<\/th>/);
    expect(page({ ...run, rejections: [{ ...run.rejections[0]!, row: 6 }] })).toMatch(
      /<th class="num">Row<\/th>/,
    );
    expect(recordCounts(run)).toMatchObject({ read: 12, accepted: 8, rejected: 1 });
    expect(page(base)).not.toContain('Read in the feed');
  });

  it('says the time zone of the times it shows (a feed without a schedule: UTC)', () => {
    const text = page(base);
    expect(text).toMatch(/<h2>Run of [^<]+ <span class="tz">UTC<\/span>/);
    expect(text).toMatch(/\?run=0">[^<]+<\/a> <span class="tz">UTC<\/span>/);
  });

  it("says where a run's time went, when its report says", () => {
    const text = page({ ...base, phases: { feedMs: 29_500, pagesMs: 212, planMs: 1300, writesMs: 135_600 } });
    expect(text).toContain('time: feed 29.5 s, pages 212 ms, plan 1.3 s, writes 2 min 16 s');
    expect(page(base)).not.toContain('time: feed');
  });

  it('shows what the run says to fix in the config: a renamed feed whose keys its old id tags', () => {
    const text = page({
      ...base,
      skippedCount: 3,
      skippedUnknownOwner: 3,
      hints: [
        {
          code: 'unknown_owner',
          message: '3 listing(s) of this feed\'s keys are tagged for feed "old"',
          fix: 'add `adoptFrom: [old]` to feed "acme"',
        },
      ],
    });
    expect(text).toContain('To fix in the config (1)');
    expect(text).toContain('3 listing(s) of this feed&#39;s keys are tagged for feed &quot;old&quot;');
    expect(text).toContain('Fix: add `adoptFrom: [old]` to feed &quot;acme&quot;');
    expect(page(base)).not.toContain('To fix in the config');
  });

  it('says why nothing was applied: held deletes, another feed’s listings, or in sync (a tester read "matched" beside 54 held)', () => {
    const held = page({
      ...base,
      outcome: 'guarded',
      heldDeletes: 54,
      changes: [],
      guards: [{ guard: 'max-delete-share', tripped: true, message: 'refusing' }],
    });
    expect(held).toContain(
      'Nothing applied: 54 delete(s) held back (guard max-delete-share: see Guards above).',
    );
    expect(held).not.toContain('already matched');
    const foreign = page({ ...base, changes: [], unchanged: 0, foreign: 40, skippedCount: 40 });
    expect(foreign).toContain('40 skipped (40 another feed&#39;s)');
    expect(foreign).toContain('another feed&#39;s or skipped (40)');
    expect(page({ ...base, changes: [], unchanged: 5 })).toContain('the chatbot already matched the feed');
  });

  it('offers the override only where it applies: a share guard, not a feed without listings', () => {
    const digest = 'a'.repeat(64);
    const share = page({
      ...base,
      outcome: 'guarded',
      heldDeletes: 40,
      heldDeletesDigest: digest,
      guards: [{ guard: 'max-delete-share', tripped: true, message: 'refusing: deleting 40 of 50 listings' }],
    });
    expect(share).toContain('Run now, allowing these deletes');
    // The override names the held deletes (their digest), never all deletes (a tester: 15 named, 54 gone).
    expect(share).toContain(`name="allowDeletes" value="${digest}:40"`);
    expect(share).not.toContain('allowMassDelete');
    // A run saved before the digest: no button (it could only allow every delete).
    const older = page({
      ...base,
      outcome: 'guarded',
      heldDeletes: 40,
      guards: share ? [{ guard: 'max-delete-share', tripped: true, message: 'x' }] : [],
    });
    expect(older).not.toContain('Run now, allowing');
    expect(older).toContain('run the feed again to allow its deletes from here');
    const empty = page({
      ...base,
      outcome: 'guarded',
      heldDeletes: 50,
      guards: [
        {
          guard: 'empty-feed',
          tripped: true,
          message: 'the feed yielded no valid listing: 50 delete(s) held back',
        },
      ],
    });
    expect(empty).not.toContain('Run now, allowing these deletes');
    expect(empty).toContain('No override applies: fix the feed');
    // Replaces held, no delete: the override is offered for them (a tester found no way to give it).
    const replaced = { digest: 'c'.repeat(64), count: 180 };
    const replaces = page({
      ...base,
      outcome: 'guarded',
      heldDeletes: 0,
      guards: [
        { guard: 'mass-replace', tripped: true, message: '180 listing(s) would be replaced', held: replaced },
      ],
    });
    expect(replaces).toContain('Run now, allowing these replaces');
    expect(replaces).toContain(`name="allowReplaces" value="${replaced.digest}:180"`);
    expect(replaces).not.toContain('Run now, allowing these deletes');
    // Both held: a button each, each allowing its own (a tester: the deletes' one let replaces through).
    const both = page({
      ...base,
      outcome: 'guarded',
      heldDeletes: 10,
      heldDeletesDigest: digest,
      guards: [
        { guard: 'max-delete-share', tripped: true, message: 'refusing' },
        {
          guard: 'mass-replace',
          tripped: true,
          message: '15 replaces',
          held: { digest: replaced.digest, count: 15 },
        },
      ],
    });
    expect(both).toContain(`name="allowDeletes" value="${digest}:10"`);
    expect(both).toContain(`name="allowReplaces" value="${replaced.digest}:15"`);
  });

  it('says when held keys have no listing on the platform, and when the failures shown are the first of more', () => {
    const text = page({
      ...base,
      outcome: 'failed',
      held: 2,
      heldOnPlatform: 0,
      heldKeys: [
        {
          key: 'A-1',
          index: 0,
          row: 2,
          reason: 'not_a_number',
          message: 'Row 2: Beds "x" is not a number',
          ids: [],
        },
        {
          key: 'A-2',
          index: 1,
          row: 3,
          reason: 'not_a_number',
          message: 'Row 3: Beds "x" is not a number',
          ids: [],
        },
      ],
      failed: [{ key: 'B-1', operation: 'create', code: 'E_PLATFORM', message: 'create: Code 400' }],
      failedCount: 7,
    });
    expect(text).toContain('none of this feed’s on the platform: not created until their record is fixed');
    expect(text).toContain('Failed writes (7)');
    expect(text).toContain('The first 1 of 7, in key order.');
  });
});
