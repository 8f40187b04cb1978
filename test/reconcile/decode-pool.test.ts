import { afterAll, describe, expect, it } from 'vitest';
import { InvalidJsonError, PlatformError, SchemaError } from '../../src/api/index.ts';
import { startDecodeThreadEarly, takeEarlyDecodeThread } from '../../src/decode-thread.ts';
import { decodePool } from '../../src/reconcile/decode-pool.ts';
import { fieldMask, fieldsDigest } from '../../src/reconcile/digest.ts';
import { PAGE_SPAN } from '../../src/reconcile/remote-page.ts';
import { listRecordOf, remote } from '../../src/testing/list-record.ts';
import { listing } from '../../src/testing/listing.ts';

/** The process's decode thread, a real worker thread running src/reconcile/decode-worker.ts. */
const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
const bytes = (text: string) => Buffer.from(text, 'utf8');
const page = (ids: number[]) =>
  bytes(
    JSON.stringify({
      Data: { List: ids.map((id) => listRecordOf(id, listing(id))), VirtualCount: 99 },
      Success: true,
      Code: 200,
    }),
  );

afterAll(() => decodePool.stop());

describe('decodePool', () => {
  it('decodes pages in its thread and gives their records back, each run its own', async () => {
    const a = decodePool.session('MLSNumber', tags);
    const b = decodePool.session('MLSNumber', tags);
    const [first, other, second] = await Promise.all([
      a.decode(page([1, 2])),
      b.decode(page([7])),
      a.decode(page([3])),
    ]);
    expect([...first.ids, ...second.ids]).toEqual([1, 2, 3]);
    expect(first.virtualCount).toBe(99);
    expect(first.keys).toEqual(['MLS-0001', 'MLS-0002']);
    const canonical = remote(2, listing(2)).listing;
    expect(first.digests[1]).toBe(fieldsDigest(canonical, fieldMask(canonical)));
    const back = await a.records([second.refs[0]!, first.refs[1]!]);
    expect(back.map((l) => l.MLSNumber)).toEqual(['MLS-0003', 'MLS-0002']);
    expect(back[1]).toEqual(JSON.parse(JSON.stringify(canonical)));
    expect((await b.records([other.refs[0]!]))[0]?.MLSNumber).toBe('MLS-0007');
    a.close();
    b.close();
    await expect(a.records([0])).rejects.toThrow(/closed/);
  });

  it('fails as the client does: the same error classes, so a bad page is retried or not alike', async () => {
    const s = decodePool.session('MLSNumber', tags);
    const json = await s.decode(bytes('{"Data":')).catch((e: unknown) => e);
    expect(json).toBeInstanceOf(InvalidJsonError);
    expect((json as InvalidJsonError).retryable).toBe(true);
    const busy = await s
      .decode(bytes(JSON.stringify({ Data: null, Success: false, Code: 503, Message: 'busy' })))
      .catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(PlatformError);
    expect((busy as PlatformError).retryable).toBe(true);
    expect((busy as PlatformError).platformCode).toBe(503);
    const schema = await s
      .decode(bytes(JSON.stringify({ Data: { List: [{ ID: 'x' }] }, Code: 200 })))
      .catch((e: unknown) => e);
    expect(schema).toBeInstanceOf(SchemaError);
    expect((schema as SchemaError).message).toMatch(/^list: unexpected response: Data\.List\.0/);
    expect((schema as SchemaError).retryable).toBe(false);
    s.close();
  });

  it("takes a page's bytes over, whole or in pieces, or copies them when they are a slice of a larger buffer", async () => {
    const s = decodePool.session('MLSNumber', tags);
    const own = page([5]);
    const whole = new Uint8Array(own.byteLength);
    whole.set(own);
    await s.decode(whole);
    expect(whole.byteLength).toBe(0); // moved to the thread
    const shared = Buffer.concat([Buffer.from('xx'), own]).subarray(2);
    expect([...(await s.decode(shared)).ids]).toEqual([5]);
    expect(shared.toString('utf8')).toBe(own.toString('utf8')); // left as it was
    // In the pieces it arrived in (a list answer), each moved, joined in the thread.
    const text = page([7, 8]);
    const parts = [text.subarray(0, 10), text.subarray(10)].map((part) => new Uint8Array(part));
    expect([...(await s.decode(parts)).ids]).toEqual([7, 8]);
    expect(parts.map((part) => part.byteLength)).toEqual([0, 0]);
    // Pieces that are views of one read (a chunked answer's framing around them): each copied.
    const framed = Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\n\r\n5\r\n'), text, Buffer.from('\r\n')]);
    const at = framed.indexOf(text);
    const views = [framed.subarray(at, at + 5), framed.subarray(at + 5, at + text.length)];
    expect([...(await s.decode(views)).ids]).toEqual([7, 8]);
    expect(framed.subarray(at, at + text.length).equals(text)).toBe(true);
    s.close();
  });

  it('fails the runs waiting on it when the thread dies, and starts a new one for the next', async () => {
    const s = decodePool.session('MLSNumber', tags);
    await s.decode(page([1]));
    // A page large enough that the thread is still at it when it dies.
    const waiting = s.decode(page(Array.from({ length: 20_000 }, (_, i) => i + 2)));
    await decodePool.kill();
    await expect(waiting).rejects.toThrow(/thread that decodes the platform's pages stopped/);
    const next = decodePool.session('MLSNumber', tags);
    expect([...(await next.decode(page([4]))).ids]).toEqual([4]);
    next.close();
  });

  it('says how many pages a session wrote, and not for a session a new thread never held', async () => {
    const s = decodePool.session('MLSNumber', tags);
    const [one, two] = [await s.decode(page([1])), await s.decode(page([2]))];
    const pageOf = (refs: Float64Array) => Math.floor(refs[0]! / PAGE_SPAN);
    // Held until judged: the first page will be read back (written), the second will not (forgotten).
    s.settle({ wanted: [pageOf(one.refs)], unwanted: [pageOf(two.refs)] });
    expect(await s.spilled()).toBe(1);
    expect((await s.records([one.refs[0]!]))[0]?.MLSNumber).toBe('MLS-0001');
    await decodePool.kill();
    // The new thread holds nothing of the session: no count, rather than a wrong 0.
    await expect(s.spilled()).rejects.toThrow(/no pages kept for session/);
    s.close();
  });
});

describe('settles', () => {
  it('forgets a page judged while the pages after it wait to be decoded, rather than write it first', async () => {
    // Pages arriving faster than they decode (a first no-op): each judged as soon as it is decoded.
    // A settle in line behind the pages still to decode came once they had filled the held budget
    // (4 MB), so nearly every page was written before it was dropped; on its own port it is taken
    // before the next page is held.
    const s = decodePool.session('MLSNumber', tags);
    const ids = (p: number) => Array.from({ length: 2000 }, (_, i) => p * 2000 + i + 1);
    const pages = Array.from({ length: 16 }, (_, p) => page(ids(p)));
    expect(pages[0]!.byteLength).toBeGreaterThan(1024 * 1024);
    const decoded = await Promise.all(
      pages.map((bytes) =>
        s.decode(bytes).then((one) => {
          s.settle({ unwanted: [Math.floor(one.refs[0]! / PAGE_SPAN)], wanted: [] });
          return one.length;
        }),
      ),
    );
    expect(decoded).toEqual(pages.map(() => 2000));
    // In line: 14 of the 16 written. Here none, but for a page the thread held past the budget
    // while this thread was late to judge it (a loaded machine).
    expect(await s.spilled()).toBeLessThanOrEqual(4);
    s.close();
  });
});

describe('the decode thread started early (src/decode-thread.ts)', () => {
  it('starts for a command that reads pages, once, and the pool runs on it', async () => {
    await decodePool.stop();
    startDecodeThreadEarly(['node', 'feed-sync', 'validate', '--feed', 'a']);
    expect(takeEarlyDecodeThread()).toBeUndefined();
    startDecodeThreadEarly(['node', 'feed-sync', '--debug', 'sync', '--feed', 'a']);
    const early = takeEarlyDecodeThread();
    expect(early).toBeDefined();
    // Taken once: the pool, asked next, starts its own.
    expect(takeEarlyDecodeThread()).toBeUndefined();
    await early?.terminate();

    startDecodeThreadEarly(['node', 'feed-sync', 'plan']);
    const session = decodePool.session('MLSNumber', tags);
    const decoded = await session.decode(page([5]));
    expect(decoded.keys).toEqual(['MLS-0005']);
    session.close();
    // The pool took the early thread: nothing is left to take.
    expect(takeEarlyDecodeThread()).toBeUndefined();
  });

  it('forgets a thread that ended before a run took it: the run starts another', async () => {
    await decodePool.stop();
    const early = startDecodeThreadEarly(['node', 'feed-sync', 'sync']);
    expect(early).toBeDefined();
    await early?.terminate();
    expect(takeEarlyDecodeThread()).toBeUndefined();
    const session = decodePool.session('MLSNumber', tags);
    expect((await session.decode(page([6]))).keys).toEqual(['MLS-0006']);
    session.close();
  });
});
