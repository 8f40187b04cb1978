import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Listing } from '../normalize/index.ts';
import { remote } from '../testing/list-record.ts';
import { listing } from '../testing/listing.ts';
import { diffListing } from './compare.ts';
import { desiredOf } from './desired.ts';
import { DesiredIndex } from './desired-index.ts';
import { fieldMask, fieldsDigest, ownFields } from './digest.ts';
import { withTags } from './index.ts';
import { memoryRecords, SpillError, spillRecords } from './record-store.ts';
import { remoteEntries } from './remote-entries.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const digestOf = (l: Partial<Listing>, mask: number) => fieldsDigest(l, mask);

describe('fieldsDigest', () => {
  it('is equal for a listing and what the list operation returns of it (numbers as strings, quirks)', () => {
    for (let n = 1; n <= 50; n++) {
      const sent = withTags(listing(n, { Description: `  A home,\n number ${n}.  ` }), 'acme', tags);
      const mask = fieldMask(sent);
      expect(digestOf(remote(n, sent).listing, mask)).toBe(digestOf(sent, mask));
    }
  });

  it('differs when any compared field differs, and diffListing names the field', () => {
    const sent = withTags(listing(7), 'acme', tags);
    const mask = fieldMask(sent);
    const edits: Partial<Listing>[] = [
      { SalePrice: (sent.SalePrice ?? 0) + 1 },
      { City: 'Shelbyville' },
      { Status: 'Sold' },
      { Images: ['https://img.example/other.jpg'] },
      { Latitude: (sent.Latitude ?? 0) + 0.001 },
      { ExtensionColumn: [{ Key: 'feed-sync:feed', value: 'other' }] },
      { Bedrooms: undefined },
    ];
    for (const edit of edits) {
      const edited = remote(1, { ...sent, ...edit } as Listing).listing;
      expect(digestOf(edited, mask), JSON.stringify(edit)).not.toBe(digestOf(sent, mask));
      expect(diffListing(sent, edited).length, JSON.stringify(edit)).toBeGreaterThan(0);
    }
  });

  it('reads text and enums as compare.ts does: white space folded (NBSP, tabs), enum spelling loose', () => {
    const mask = fieldMask({ City: 'x', Status: 'Active', Images: ['a'] } as Listing);
    const a = { City: 'San  Juan', Status: 'Active', Images: ['https://a/1.jpg', 'https://a/2.jpg'] };
    const b = {
      City: '\u00a0San\t\nJuan ',
      Status: 'ACTIVE',
      Images: [' https://a/1.jpg', 'https://a/2.jpg\n'],
    };
    expect(digestOf(b as Partial<Listing>, mask)).toBe(digestOf(a as Partial<Listing>, mask));
    const c = { ...a, City: 'SanJuan' };
    expect(digestOf(c as Partial<Listing>, mask)).not.toBe(digestOf(a as Partial<Listing>, mask));
    const d = { ...a, Images: ['https://a/1.jpghttps://a/2.jpg'] };
    expect(digestOf(d as Partial<Listing>, mask)).not.toBe(digestOf(a as Partial<Listing>, mask));
    expect(diffListing(a as Listing, b as Partial<Listing>)).toEqual([]);
  });

  it('reads ExtensionColumn as a multiset, as compare.ts does: order and white space aside, every entry counts', () => {
    const mask = fieldMask({ ExtensionColumn: [{ Key: 'a', value: '1' }] } as Listing);
    const of = (entries: [string, string][]) =>
      digestOf(
        { ExtensionColumn: entries.map(([Key, value]) => ({ Key, value })) } as Partial<Listing>,
        mask,
      );
    const base = of([
      ['Pool', 'yes'],
      ['Agent', 'Ann Lee'],
      ['feed-sync:hash', 'abc'],
    ]);
    expect(
      of([
        ['feed-sync:hash', 'abc'],
        [' Agent', 'Ann  Lee\n'],
        ['Pool', 'yes'],
      ]),
    ).toBe(base);
    // A key and its value are not interchangeable, an entry is not a pair of halves, and a repeat counts.
    expect(
      of([
        ['yes', 'Pool'],
        ['Agent', 'Ann Lee'],
        ['feed-sync:hash', 'abc'],
      ]),
    ).not.toBe(base);
    expect(
      of([
        ['Pool', 'yesAgent'],
        ['', 'Ann Lee'],
        ['feed-sync:hash', 'abc'],
      ]),
    ).not.toBe(base);
    expect(
      of([
        ['Pool', 'yes'],
        ['Agent', 'Ann Lee'],
        ['feed-sync:hash', 'abc'],
        ['Pool', 'yes'],
      ]),
    ).not.toBe(base);
    expect(
      of([
        ['Pool', 'yes'],
        ['Agent', 'Ann Lee'],
      ]),
    ).not.toBe(base);
    expect(
      of([
        ['Pool', 'no'],
        ['Agent', 'Ann Lee'],
        ['feed-sync:hash', 'abc'],
      ]),
    ).not.toBe(base);
  });

  it('covers only the fields the feed sets: a remote field the feed leaves unset is not compared', () => {
    const sent = withTags(listing(3, { DaysOnMarket: undefined }), 'acme', tags);
    const mask = fieldMask(sent);
    const remoteHasIt = { ...remote(1, sent).listing, DaysOnMarket: 45 };
    expect(digestOf(remoteHasIt, mask)).toBe(digestOf(sent, mask));
    expect(diffListing(sent, remoteHasIt)).toEqual([]);
  });

  it('equal digests always mean no change (never a false "unchanged"), whatever the rounding', () => {
    // Numbers around the half-cent bucket edges and coordinates around 1e-6.
    const prices = [100, 100.004, 100.0049, 100.005, 100.0051, 99.996, 100.01, 1e9 + 0.003];
    for (const a of prices)
      for (const b of prices) {
        const sent = { SalePrice: a } as Listing;
        const got = { SalePrice: b };
        const mask = fieldMask(sent);
        if (digestOf(got, mask) === digestOf(sent, mask))
          expect(diffListing(sent, got), `${a} ${b}`).toEqual([]);
      }
  });
});

describe('ownFields', () => {
  it("is fieldMask and fieldsDigest over that mask, for the feed's listings and the platform's", () => {
    const stamp = { Key: 'feed-sync:photos', value: '2026-11-01T10:00:00Z' };
    const variants = (n: number): Partial<Listing>[] => {
      const sent = withTags(listing(n, { Description: `  A home,\n number ${n}.  ` }), 'acme', tags);
      return [
        sent,
        remote(n, sent).listing,
        { ...sent, DaysOnMarket: undefined, City: '  ', Images: [] },
        { ...sent, ExtensionColumn: [...(sent.ExtensionColumn ?? []), stamp] },
        { SalePrice: 100.005 + n, Latitude: 40.7 + n / 1e7 },
        {},
      ];
    };
    const seen = new Set<number>();
    for (let n = 1; n <= 30; n++)
      for (const l of variants(n)) {
        const mask = fieldMask(l);
        expect(ownFields(l)).toEqual({ mask, digest: fieldsDigest(l, mask) });
        seen.add(ownFields(l).digest);
      }
    // Not one constant: the listings differ, and so do their digests.
    expect(seen.size).toBeGreaterThan(100);
  });
});

describe('remote entries', () => {
  it('keep the id, key and owner; compare by digest, and field by field only when digests differ', () => {
    const records = memoryRecords();
    const feed = listing(1);
    const index = new DesiredIndex();
    index.keep([index.add(desiredOf(feed, 'MLS-0001', 'acme', tags, records))]);
    let loads = 0;
    const set = {
      load: (e: { ref: number }) => {
        loads++;
        return records.get(e.ref);
      },
    };
    const sink = remoteEntries('MLSNumber', tags, index, set);
    sink.keep(1, remote(9, withTags(feed, 'acme', tags)));
    expect(loads).toBe(0);
    sink.keep(1, remote(10, withTags({ ...feed, SalePrice: 1 }, 'acme', tags)));
    expect(loads).toBe(1);
    sink.keep(1, remote(11, listing(2)));
    const { listings: entries } = sink.finish();
    const row = (i: number) => ({
      id: entries.idAt(i),
      key: entries.keyAt(i),
      owner: entries.ownerAt(i),
      changes: entries.changesAt(i)?.map((c) => c.field),
    });
    expect([0, 1, 2].map(row)).toEqual([
      { id: 9, key: 'MLS-0001', owner: 'acme', changes: [] },
      { id: 10, key: 'MLS-0001', owner: 'acme', changes: expect.arrayContaining(['SalePrice']) },
      { id: 11, key: 'MLS-0002', owner: undefined, changes: undefined },
    ]);
  });
});

describe('record stores', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('a spill file gives back every record as it was put, before and after a flush, and leaves no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'feed-sync-spill-test-'));
    dirs.push(dir);
    const store = spillRecords(dir);
    expect(readdirSync(dir)).toEqual([]);
    const put = Array.from({ length: 3000 }, (_, i) =>
      listing(i, { Description: `Ñandú ${'x'.repeat(i % 700)} ✓` }),
    );
    const refs = put.map((l) => store.put(l));
    expect(store.size).toBe(3000);
    for (const i of [0, 1, 1499, 2999]) expect(store.get(refs[i]!)).toEqual(put[i]);
    store.put(listing(9999));
    expect(store.get(3000)).toEqual(listing(9999));
    expect(() => store.get(3001)).toThrow(RangeError);
    store.close();
    expect(() => store.get(0)).toThrow(/closed/);
    expect(existsSync(dir) && readdirSync(dir).length).toBe(0);
  });

  it('a spill folder that cannot be written is a clear, retryable error naming TMPDIR', () => {
    const error = (() => {
      try {
        spillRecords('/nonexistent/feed-sync');
      } catch (e) {
        return e as SpillError;
      }
    })();
    expect(error).toBeInstanceOf(SpillError);
    expect(error?.code).toBe('E_SPILL');
    expect(error?.message).toMatch(/under \/nonexistent\/feed-sync .*set TMPDIR/);
  });
});
