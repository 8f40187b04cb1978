import { describe, expect, it } from 'vitest';
import type { Rejection } from '../ingest/index.ts';
import type { Failure, RunReport } from '../reconcile/index.ts';
import { emptyReport } from '../reconcile/index.ts';
import { changeText, imagesDifference, renderReport, showField } from './index.ts';
import { progressLine } from './progress.ts';
import { rejectionLine } from './render-report.ts';

/** The feed the reports are of. */
const feed = { id: 'feed1', chatbot: 'SN-1' };
const calls = { edit: 0, session: 0, ask: 0, create: 2, update: 1, list: 1, delete: 0 };

function report(patch: Partial<RunReport> = {}): RunReport {
  const at = { startedAt: new Date('2024-05-01T06:00:00Z'), finishedAt: new Date('2024-05-01T06:00:01.5Z') };
  return {
    ...emptyReport({ feedId: feed.id, chatbot: feed.chatbot, ...at, apiCalls: calls, dryRun: false }),
    ...patch,
  };
}

const rejection = (row: number): Rejection => ({
  feedId: 'feed1',
  row,
  index: row - 2,
  key: `A-${row}`,
  field: 'Bedrooms',
  value: 'three',
  reason: 'not_a_number',
  message: `Row ${row} of acme.csv: Bedrooms "three" is not a number`,
});

const failure = (n: number): Failure => ({
  key: `MLS-${n}`,
  operation: 'update',
  id: n,
  code: 'E_PLATFORM',
  platformCode: 1003,
  platformMessage: 'Listing not found',
  message: 'update: platform answered Code 1003: Listing not found',
});

describe('renderReport', () => {
  it('names what was rejected: feed, row, field and value, as ingestion worded it', () => {
    const text = renderReport(report({ rejected: 2, rejections: [rejection(8), rejection(12)] }));
    expect(text).toContain('rejected 2, held 0, foreign 0');
    expect(text).toContain(
      [
        '  rejected 2 feed record(s):',
        '    Row 8 of acme.csv (A-8): Bedrooms "three" is not a number',
        '    Row 12 of acme.csv (A-12): Bedrooms "three" is not a number',
      ].join('\n'),
    );
    expect(text).not.toContain('more;');
  });

  it('names a rejected row by its key when it has one, never twice', () => {
    const line = (message: string, key?: string) => rejectionLine({ message, ...(key ? { key } : {}) });
    expect(line('Row 20 of feed.csv: Bedrooms "three" is not a number', 'ML81332052')).toBe(
      'Row 20 of feed.csv (ML81332052): Bedrooms "three" is not a number',
    );
    expect(line('Row 7 of feed.csv: Url "x" is not a valid URL')).toBe(
      'Row 7 of feed.csv: Url "x" is not a valid URL',
    );
    expect(line('Record 3 of feed.xml (MLSNumber K-3): Bedrooms "x" is not a number', 'K-3')).toBe(
      'Record 3 of feed.xml (MLSNumber K-3): Bedrooms "x" is not a number',
    );
    // A key that is a word of the place, not its name there, is still said.
    expect(line('Row 20 of feed.csv: Bedrooms "three" is not a number', '20')).toBe(
      'Row 20 of feed.csv (20): Bedrooms "three" is not a number',
    );
    expect(line('Row 2 of feed.csv: Bedrooms "three" is not a number', 'feed')).toBe(
      'Row 2 of feed.csv (feed): Bedrooms "three" is not a number',
    );
  });

  it('shows the first 10 rejections, then how many more and where to see them all', () => {
    const kept = Array.from({ length: 20 }, (_, i) => rejection(i + 2));
    const text = renderReport(report({ rejected: 25, rejections: kept }));
    expect(text.split('\n').filter((l) => l.startsWith('    Row '))).toHaveLength(10);
    expect(text).toContain('Row 11 of acme.csv');
    expect(text).not.toContain('Row 12 of acme.csv');
    expect(text).toContain('    … and 15 more; `feed-sync validate --feed feed1 --json` lists them all');
  });

  it('lists failed writes with key, operation, remote ID and the platform Code/Message', () => {
    const timeout: Failure = {
      key: 'MLS-9',
      operation: 'create',
      code: 'E_TIMEOUT',
      message: 'create: no answer within 250 ms',
    };
    const text = renderReport(report({ outcome: 'failed', failed: [failure(3), timeout] }));
    expect(text).toContain(
      [
        '  failed 2 write(s):',
        '    update MLS-3 (ID 3): platform Code 1003: "Listing not found" [E_PLATFORM]',
        '    create MLS-9: no answer within 250 ms [E_TIMEOUT]',
      ].join('\n'),
    );
  });

  it('shows the first 10 failures; --json has them all', () => {
    const failed = Array.from({ length: 12 }, (_, i) => failure(i + 1));
    const r = report({ outcome: 'failed', failed });
    const text = renderReport(r);
    expect(text).toContain('    update MLS-10 (ID 10)');
    expect(text).not.toContain('MLS-11');
    expect(text).toContain('    … and 2 more; --json lists them all');
    expect(JSON.parse(JSON.stringify(r)).failed).toHaveLength(12);
  });

  it('says how many held keys --json lists: all of them, or the first of many', () => {
    const held = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        key: `A-${i}`,
        index: i,
        reason: 'not_a_number',
        message: `Row ${i + 2} of a.csv: Bedrooms "x" is not a number`,
        ids: [],
      }));
    const some = renderReport(report({ held: 3, heldOnPlatform: 1, heldKeys: held(3) }));
    expect(some).toContain(
      '  held 3 key(s): 1 listing(s) on the platform kept exactly as they are, 2 not created:\n',
    );
    expect(renderReport(report({ held: 3, heldOnPlatform: 0, heldKeys: held(3) }))).toContain(
      "  held 3 key(s), none of this feed's on the platform (nothing is created for them):\n",
    );
    const few = renderReport(report({ held: 12, heldKeys: held(12) }));
    expect(few).toMatch(/^ {4}… and 2 more; --json lists them$/m);
    const many = renderReport(report({ held: 250, heldKeys: held(200) }));
    expect(many).toContain(
      `    … and 240 more; --json lists the first 200, \`feed-sync validate --feed ${feed.id} --json\` every rejected record`,
    );
  });

  it('counts every failed write; --json lists the first of many', () => {
    const failed = Array.from({ length: 1000 }, (_, i) => failure(i + 1));
    const text = renderReport(report({ outcome: 'failed', failed, failedCount: 250_000 }));
    expect(text).toContain('adopted 0, failed 250000');
    expect(text).toContain('  failed 250000 write(s):');
    expect(text).toContain('    … and 249990 more; --json lists the first 1000');
  });

  it('a failed run says its outcome in words, and the attempts beside the calls that failed', () => {
    const failed = report({
      outcome: 'failed',
      reason: 'snapshot: list: cannot reach http://127.0.0.1:9 after 5 attempts: ECONNREFUSED',
      apiCalls: { ...calls, update: 4 },
      apiCallsFailed: { list: { calls: 1, attempts: 5 }, update: { calls: 2, attempts: 10 } },
    });
    expect(renderReport(failed).split('\n')).toContain(
      '  API calls: create 2, update 4 (2 failed after 10 attempts), list 1 (5 attempts)',
    );
    // A partial run (rejected or held records) is `partial`, as on the dashboard; a guard, in words.
    expect(renderReport(report({ rejected: 1, held: 1 }))).toMatch(/^~ feed1 → SN-1: partial in 1\.5s\n/);
    expect(renderReport(report({ outcome: 'guarded' }))).toMatch(/^! feed1 → SN-1: guard tripped in 1\.5s/);
  });

  it('a clean run shows no rejection or failure section', () => {
    const text = renderReport(report());
    expect(text).toMatch(/^✓ feed1 → SN-1: ok in 1\.5s\n {2}created 0, updated 0, deleted 0/);
    expect(text).toContain('API calls: create 2, update 1, list 1');
    expect(text).not.toContain('feed record(s)');
    expect(text).not.toContain('write(s)');
  });
});

describe('progressLine', () => {
  const stream = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, isTTY, columns: 40, write: (t: string) => written.push(t) };
  };

  it('redraws one line in place on a terminal, a new phase at once, else at most every 100 ms, and clears it', () => {
    const tty = stream(true);
    let now = 1000;
    const line = progressLine('acme', tty, () => now);
    line.onProgress({ phase: 'snapshot', done: 0, total: 0 });
    now += 50;
    line.onProgress({ phase: 'planning', done: 0, total: 0 });
    line.onProgress({ phase: 'applying', done: 0, total: 125 });
    now += 50;
    line.onProgress({ phase: 'applying', done: 10, total: 125 });
    now += 100;
    line.onProgress({ phase: 'applying', done: 20, total: 125 });
    line.onProgress({ phase: 'done', done: 0, total: 0 });
    line.clear();
    expect(tty.written).toEqual([
      '\r\x1b[2Kacme: snapshot 25%',
      '\r\x1b[2Kacme: planning 35%',
      '\r\x1b[2Kacme: applying 40% 0/125',
      '\r\x1b[2Kacme: applying 49% 20/125 · 133/s · ETA',
      '\r\x1b[2Kacme: done 100%',
      '\r\x1b[2K',
    ]);
  });

  it('shows rate and ETA while applying', () => {
    const tty = stream(true);
    tty.columns = 80;
    let now = 1000;
    const line = progressLine('acme', tty, () => now);
    line.onProgress({ phase: 'applying', done: 0, total: 300 });
    now += 2000;
    line.onProgress({ phase: 'applying', done: 100, total: 300 });
    expect(tty.written.at(-1)).toBe('\r\x1b[2Kacme: applying 60% 100/300 · 50/s · ETA 4s');
  });

  it('writes one plain line per phase off a terminal', () => {
    const pipe = stream(false);
    const line = progressLine('acme', pipe);
    line.onProgress({ phase: 'fetching', done: 0, total: 0 });
    line.onProgress({ phase: 'normalizing', done: 9, total: 10 });
    line.onProgress({ phase: 'applying', done: 0, total: 3 });
    line.onProgress({ phase: 'applying', done: 2, total: 3 });
    line.onProgress({ phase: 'done', done: 0, total: 0 });
    line.clear();
    expect(pipe.written).toEqual([
      'acme: fetching\n',
      'acme: normalizing 9 of 10 records valid\n',
      'acme: applying 0/3\n',
      'acme: done\n',
    ]);
  });

  it('says why a run reads its feed again (a reused reading given up), once, on a terminal or not', () => {
    const note =
      'the feed is unchanged, but listings on the platform differ from it: reading the feed to write them';
    const pipe = stream(false);
    const plain = progressLine('acme', pipe);
    plain.onProgress({ phase: 'fetching', done: 0, total: 0 });
    plain.onProgress({ phase: 'planning', done: 0, total: 0 });
    plain.onProgress({ phase: 'fetching', done: 0, total: 0, note });
    plain.onProgress({ phase: 'fetching', done: 0, total: 0 });
    expect(pipe.written).toEqual(['acme: fetching\n', 'acme: planning\n', `acme: fetching (${note})\n`]);
    const tty = stream(true);
    const line = progressLine('acme', tty, () => 1000);
    line.onProgress({ phase: 'fetching', done: 0, total: 0, note });
    expect(tty.written[0]).toBe(`\r\x1b[2Kacme: ${note}\n`);
  });
});

describe('imagesDifference: photo URLs told apart, not two counts', () => {
  const urls = (...names: string[]) => names.map((n) => `https://img.example/listing-42/${n}.jpg`);

  it('says which URLs are gone and new, the first of each by its end', () => {
    expect(imagesDifference(urls('1', '2', '3'), urls('1', '2', '3b'))).toBe(
      '3 URLs → 3 URLs: 1 gone ("https://img.example/listing-42/3.jpg"); 1 new ("https://img.example/listing-42/3b.jpg")',
    );
    const long = `https://cdn.example/${'x'.repeat(80)}/photo-7.jpg`;
    expect(imagesDifference([long], [])).toBe(
      '1 URL → 0 URLs: 1 gone ("…xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/photo-7.jpg")',
    );
    expect(imagesDifference(urls('1'), urls('1', '2', '3'))).toBe(
      '1 URL → 3 URLs: 2 new ("https://img.example/listing-42/2.jpg", …)',
    );
  });

  it('says the same URLs in another order', () => {
    expect(imagesDifference(urls('1', '2'), urls('2', '1'))).toBe('the same 2 URLs in another order');
    expect(changeText('Images', urls('1', '2'), urls('2', '1'), {})).toBe(
      'Images: the same 2 URLs in another order',
    );
    expect(changeText('SalePrice', 1, 2, { CurrencySymbol: '$' })).toBe('SalePrice: $1 → $2');
  });
});

describe('imagesDifference reads URLs as the platform does, and counts repeats', () => {
  it('a URL with a comma is the two the platform reads back; a repeat counts', () => {
    expect(
      imagesDifference(
        ['https://x/a', 'w_640.jpg', 'https://x/old.jpg'],
        ['https://x/a,w_640.jpg', 'https://x/new.jpg'],
      ),
    ).toBe('3 URLs → 3 URLs: 1 gone ("https://x/old.jpg"); 1 new ("https://x/new.jpg")');
    expect(imagesDifference(['a', 'a', 'b'], ['a', 'b', 'b'])).toBe(
      '3 URLs → 3 URLs: 1 gone ("a"); 1 new ("b")',
    );
  });
});

describe('renderReport: every problem of a rejected record (a new user saw only the first)', () => {
  it('says the others after the first, as validate does', () => {
    const first = rejection(4);
    const text = renderReport(
      report({
        rejected: 1,
        rejections: [
          {
            ...first,
            problems: [
              {
                field: 'Bedrooms',
                value: 'three',
                reason: 'not_a_number',
                message: 'Bedrooms "three" is not a number',
              },
              {
                field: 'LotArea',
                value: '1.649',
                reason: 'not_a_number',
                message: 'LotArea "1.649" could be read two ways',
              },
            ],
          },
        ],
      }),
    );
    expect(text).toContain(
      '    Row 4 of acme.csv (A-4): Bedrooms "three" is not a number; also LotArea "1.649" could be read two ways',
    );
  });
});

describe('renderReport: which listings a run wrote (a new user ran sync and saw only counts)', () => {
  const deletes = Array.from({ length: 12 }, (_, i) => ({
    key: `D-${i + 1}`,
    op: 'delete' as const,
    id: 100 + i,
    reason: 'gone' as const,
  }));
  const changes = [
    { key: 'C-1', op: 'create' as const, summary: '1 Main St · $300,000' },
    {
      key: 'U-1',
      op: 'update' as const,
      id: 7,
      fields: [
        { field: 'SalePrice', from: 300_000, to: 290_000 },
        { field: 'Bedrooms', from: 2, to: 3 },
      ],
    },
    ...deletes,
  ];

  it('names them by key, kind by kind, the first ten of each', () => {
    const text = renderReport(report({ created: 1, updated: 1, deleted: 12, changes, changesOmitted: 0 }));
    expect(text).toContain(
      [
        '  listings written:',
        '    created: C-1',
        '    updated: U-1 (SalePrice, Bedrooms)',
        '    deleted: D-1, D-2, D-3, D-4, D-5, D-6, D-7, D-8, D-9, D-10, … and 2 more',
        '    (`--json` lists them, with each field old → new)',
      ].join('\n'),
    );
  });

  it('says they were planned where a write failed, would be written in a dry run, and nothing without writes', () => {
    const failed = renderReport(
      report({ outcome: 'failed', updated: 0, failed: [failure(7)], changes: changes.slice(0, 2) }),
    );
    expect(failed).toContain(
      '  listings planned (what failed or was not applied is below):\n    created: C-1',
    );
    const dry = renderReport(report({ dryRun: true, changes: changes.slice(0, 1), changesOmitted: 600 }));
    expect(dry).toContain(
      '  listings it would write:\n    created: C-1\n    … and 600 more write(s) past the first 1',
    );
    expect(renderReport(report({ changes: [] }))).not.toContain('listings');
  });
});

describe('money as a person reads it (a new user saw €1,250.5 and a rent like a price)', () => {
  it('shows cents as cents and a rent a month', () => {
    expect(showField('RentPrice', 1250.5, { CurrencySymbol: '€' })).toBe('€1,250.50 a month');
    expect(showField('SalePrice', 450_000, { CurrencySymbol: '$' })).toBe('$450,000');
    expect(showField('SalePrice', 99.9, { CurrencySymbol: '£' })).toBe('£99.90');
  });
});

describe('a guarded run names what it held back (a new user approved --allow-mass-delete blind)', () => {
  it('lists the first held deletes by key, and how many more', () => {
    const heldDeleteKeys = Array.from({ length: 12 }, (_, i) => ({
      key: `K-${i + 1}`,
      id: i + 1,
      reason: 'gone',
    }));
    const text = renderReport(report({ heldDeletes: 12, heldDeleteKeys }));
    expect(text).toContain(
      '  held back, --allow-mass-delete would delete: K-1 (ID 1, gone), K-2 (ID 2, gone), K-3 (ID 3, gone)',
    );
    expect(text).toMatch(/K-10 \(ID 10, gone\), … and 2 more \(`feed-sync plan --feed \S+` lists them\)$/m);
    expect(renderReport(report())).not.toContain('held back, --allow-mass-delete');
  });
});
