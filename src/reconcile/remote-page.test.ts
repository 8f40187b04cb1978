import { describe, expect, it } from 'vitest';
import { InvalidJsonError, PlatformError, SchemaError } from '../api/index.ts';
import { listRecordOf, remote } from '../testing/list-record.ts';
import { listing } from '../testing/listing.ts';
import { fieldMask, fieldsDigest } from './digest.ts';
import { withTags } from './ownership.ts';
import { decodePage, PAGE_SPAN, recordsOf } from './remote-page.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const envelope = (data: unknown) => JSON.stringify({ Data: data, Success: true, Code: 200, Message: '' });

describe('decodePage', () => {
  it('keeps each listing of a page as the run compares it: ID, key, owner, own mask and digest, where its record is', () => {
    const mine = withTags(listing(1), 'acme', tags);
    const sold = listing(2, { Status: 'Sold' });
    const unkeyed = listing(3, { MLSNumber: undefined });
    const text = envelope({
      List: [listRecordOf(11, mine), listRecordOf(12, sold), listRecordOf(13, unkeyed)],
      VirtualCount: 40,
    });
    const page = decodePage(text, 'MLSNumber', tags, 7);
    expect(page.length).toBe(3);
    expect(page.virtualCount).toBe(40);
    expect([...page.ids]).toEqual([11, 12, 13]);
    expect(page.keys).toEqual(['MLS-0001', 'MLS-0002', '']);
    expect(page.owners).toEqual(['acme', '', '']);
    expect([...page.sold]).toEqual([0, 1, 0]);
    [mine, sold, unkeyed].forEach((stored, i) => {
      const canonical = remote(11 + i, stored).listing;
      expect(page.masks[i]).toBe(fieldMask(canonical));
      expect(page.digests[i]).toBe(fieldsDigest(canonical, fieldMask(canonical)));
      expect(page.refs[i]).toBe(7 * PAGE_SPAN + i);
    });
    // A record is found again by its place on the page, from the page's text.
    expect(recordsOf(text, [2, 0])).toEqual([remote(13, unkeyed).listing, remote(11, mine).listing]);
    expect(() => recordsOf(text, [3])).toThrow(RangeError);
  });

  it('keys a Url feed by Url, trimmed', () => {
    const text = envelope({ List: [listRecordOf(5, listing(5, { Url: '  https://x.example/5 ' }))] });
    const page = decodePage(text, 'Url', tags, 0);
    expect(page.keys).toEqual(['https://x.example/5']);
    expect(page.virtualCount).toBeUndefined();
  });

  it('fails as the client would, so its retry policy reads the failure alike', () => {
    const json = (() => {
      try {
        return decodePage('{"Data": {"List": [', 'MLSNumber', tags, 0);
      } catch (error) {
        return error;
      }
    })();
    expect(json).toBeInstanceOf(InvalidJsonError);
    expect((json as InvalidJsonError).retryable).toBe(true);
    const busy = JSON.stringify({ Data: null, Success: false, Code: 503, Message: 'busy' });
    expect(() => decodePage(busy, 'MLSNumber', tags, 0)).toThrow(PlatformError);
    const bad = envelope({ List: [{ ID: 'seven' }] });
    expect(() => decodePage(bad, 'MLSNumber', tags, 0)).toThrow(SchemaError);
  });
});
