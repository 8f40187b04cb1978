import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Listing } from '../normalize/index.ts';
import { remote } from '../testing/list-record.ts';
import { listing } from '../testing/listing.ts';
import { diffListing } from './compare.ts';
import { desiredListings, desiredOf } from './desired.ts';
import { fieldMask, fieldsDigest } from './digest.ts';
import { remoteEntryOf, withTags } from './index.ts';
import { memoryRecords, SpillError, spillRecords } from './record-store.ts';

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

describe('remoteEntryOf', () => {
  it('keeps the id, key and owner; compares by digest, and field by field only when digests differ', () => {
    const records = memoryRecords();
    const feed = listing(1);
    const d = desiredOf(feed, 'MLS-0001', 'acme', tags, records);
    const byKey = new Map([[d.key, d]]);
    let loads = 0;
    const set = {
      load: (e: typeof d) => {
        loads++;
        return records.get(e.ref);
      },
    };
    const same = remoteEntryOf(remote(9, withTags(feed, 'acme', tags)), 'MLSNumber', tags, byKey, set);
    expect(same).toEqual({ id: 9, key: 'MLS-0001', owner: 'acme', changes: [] });
    expect(loads).toBe(0);
    const moved = remoteEntryOf(
      remote(10, withTags({ ...feed, SalePrice: 1 }, 'acme', tags)),
      'MLSNumber',
      tags,
      byKey,
      set,
    );
    expect(loads).toBe(1);
    expect(moved.changes?.map((c) => c.field)).toContain('SalePrice');
    const stranger = remoteEntryOf(remote(11, listing(2)), 'MLSNumber', tags, byKey, set);
    expect(stranger).toEqual({ id: 11, key: 'MLS-0002', owner: undefined });
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

  it('desiredListings digests in chunks and stops when the run is cancelled', async () => {
    const feed = Array.from({ length: 1201 }, (_, i) => listing(i));
    const records = memoryRecords();
    const desired = await desiredListings(feed, (l) => l.MLSNumber, 'acme', tags, records);
    expect(desired).toHaveLength(1201);
    expect(desired[1200]).toEqual({
      ...desiredOf(feed[1200]!, 'MLS-1200', 'acme', tags, memoryRecords()),
      ref: 1200,
    });
    expect(records.get(desired[5]!.ref)).toEqual(withTags(feed[5]!, 'acme', tags));
    await expect(
      desiredListings(feed, (l) => l.MLSNumber, 'acme', tags, memoryRecords(), AbortSignal.abort()),
    ).rejects.toThrow();
  });
});
