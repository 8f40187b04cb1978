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
  it('takes a settle before a page posted ahead of it: a page judged unwanted is forgotten, not written to make room', async () => {
    // A first no-op: the pages come faster than they decode, and the run judges each as it comes
    // back, when the pages after it are already posted. In line behind them, a settle came once
    // they had filled the held budget, and every page was written before it was dropped.
    const s = decodePool.session('MLSNumber', tags);
    const other = decodePool.session('MLSNumber', tags);
    const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i + 1);
    const pages = [0, 1, 2].map((p) => page(ids(p * 2000, 2000)));
    // Two pages of these fit in the 4 MB the thread holds, three do not.
    expect(pages[0]!.byteLength * 2).toBeLessThan(4 * 1024 * 1024);
    expect(pages[0]!.byteLength * 3).toBeGreaterThan(4 * 1024 * 1024);
    const held = [await s.decode(pages[0]!), await s.decode(pages[1]!)];
    // The thread at another run's long page while the third page, then the settle of the first two,
    // are posted.
    const long = other.decode(page(ids(10_000, 20_000)));
    const third = s.decode(pages[2]!);
    s.settle({ unwanted: held.map((one) => Math.floor(one.refs[0]! / PAGE_SPAN)), wanted: [] });
    expect((await third).length).toBe(2000);
    expect((await long).length).toBe(20_000);
    // In line, holding the third page wrote the first (1 written); taken first, none is.
    expect(await s.spilled()).toBe(0);
    s.close();
    other.close();
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
