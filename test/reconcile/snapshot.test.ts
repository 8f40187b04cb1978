import { describe, expect, it } from 'vitest';
import type { PlatformClient } from '../../src/api/index.ts';
import type { ListPage, RemoteRecord } from '../../src/api/schemas.ts';
import { readSnapshot } from '../../src/reconcile/index.ts';
import { type PageRead, type PageReader, readPages, virtualCountOf } from '../../src/reconcile/snapshot.ts';
import { platformClient } from '../helpers/platform-client.ts';

const record = (id: number): RemoteRecord => ({ ID: id, MLSNumber: `M-${id}`, SalePrice: '100' });

/** A client whose list operation answers the pages given (the rest of the client is never called). */
function pagesClient(pages: Record<number, RemoteRecord[]>, virtualCount: number): PlatformClient {
  return Object.assign(platformClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }), {
    listListings: async (request: { PageNumber?: number }): Promise<ListPage> => {
      return { List: pages[request.PageNumber ?? 1] ?? [], VirtualCount: virtualCount };
    },
  });
}

describe('readSnapshot', () => {
  it('dedupes by ID and notes the drift when listings move under the read', async () => {
    // A listing was added at the front while page 2 was read: ID 2 comes back twice, ID 5 never.
    const client = pagesClient({ 1: [record(1), record(2)], 2: [record(2), record(3)], 3: [record(4)] }, 5);
    const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 2, concurrency: 2 });
    expect(snapshot.listings.map((l) => l.id)).toEqual([1, 2, 3, 4]);
    expect(snapshot.listings[0]?.listing).toEqual({ MLSNumber: 'M-1', SalePrice: 100 });
    expect(snapshot.pages).toBe(3);
    expect(snapshot.drift).toEqual([
      '1 listing ID(s) were returned on two pages',
      'VirtualCount said 5, the pages held 4 distinct listings',
    ]);
  });

  it('reads on past a full last page even where VirtualCount says it is the last: a count low by whole pages loses nothing', async () => {
    const client = pagesClient({ 1: [record(1), record(2)], 2: [record(3), record(4)], 3: [record(5)] }, 4);
    const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 2, concurrency: 2 });
    expect(snapshot.listings.map((l) => l.id)).toEqual([1, 2, 3, 4, 5]);
    expect(snapshot.pages).toBe(3);
    expect(snapshot.drift).toEqual([
      'page 3 was read beyond VirtualCount 4',
      'VirtualCount said 4, the pages held 5 distinct listings',
    ]);
    // A count that is right costs one empty page when it is a multiple of the page size.
    const right = pagesClient({ 1: [record(1), record(2)], 2: [record(3), record(4)] }, 4);
    const exact = await readSnapshot(right, { chatbot: 'S', pageSize: 2, concurrency: 2 });
    expect(exact).toMatchObject({ pages: 2, drift: [] });
    expect(exact.listings).toHaveLength(4);
  });

  it('a count low by many pages, or many short pages, each make one line of drift, not one a page', async () => {
    const many: Record<number, RemoteRecord[]> = {};
    for (let page = 1; page <= 12; page++) many[page] = [record(page * 2 - 1), record(page * 2)];
    const low = await readSnapshot(pagesClient(many, 2), { chatbot: 'S', pageSize: 2, concurrency: 3 });
    expect(low.listings).toHaveLength(24);
    expect(low.drift).toEqual([
      'pages 2 to 12 (11) were read beyond VirtualCount 2',
      'VirtualCount said 2, the pages held 24 distinct listings',
    ]);
    // Listings deleted under the read: every page after the first came back with one of two.
    const gappy: Record<number, RemoteRecord[]> = { 1: [record(1), record(2)] };
    for (let page = 2; page <= 8; page++) gappy[page] = [record(100 + page)];
    const short = await readSnapshot(pagesClient(gappy, 16), { chatbot: 'S', pageSize: 2, concurrency: 8 });
    expect(short.listings).toHaveLength(9);
    expect(short.drift).toEqual([
      'page 2 returned 1 of 2 listings',
      'page 3 returned 1 of 2 listings',
      'page 4 returned 1 of 2 listings',
      '3 more pages returned fewer than 2 listings (pages 5 to 7)',
      'VirtualCount said 16, the pages held 9 distinct listings',
    ]);
  });

  it('a short first page without a count that says why reads the second: a silent cap is found, every page read', async () => {
    // 7 listings, 2 a page at most, 5 asked: no VirtualCount, then one that is too low.
    const pages = {
      1: [record(1), record(2)],
      2: [record(3), record(4)],
      3: [record(5), record(6)],
      4: [record(7)],
    };
    for (const told of [undefined, 1]) {
      const client = Object.assign(platformClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }), {
        listListings: async (request: { PageNumber?: number }): Promise<ListPage> => ({
          List: pages[(request.PageNumber ?? 1) as 1] ?? [],
          ...(told === undefined ? {} : { VirtualCount: told }),
        }),
      });
      const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 5, concurrency: 2 });
      expect(snapshot.listings.map((l) => l.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(snapshot).toMatchObject({ pageSize: 2, requestedPageSize: 5, pages: 4 });
      expect(snapshot.drift[0]).toMatch(/^the platform answered 2 listings a page where 5 were asked/);
    }
    // A short first page that is the whole list costs one more page to be sure, and says nothing.
    const small = Object.assign(platformClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }), {
      listListings: async (request: { PageNumber?: number }): Promise<ListPage> => ({
        List: request.PageNumber === 1 ? [record(1), record(2)] : [],
      }),
    });
    expect(await readSnapshot(small, { chatbot: 'S', pageSize: 5, concurrency: 2 })).toMatchObject({
      pages: 1,
      pageSize: 5,
      drift: [],
    });
  });

  it('a server that answers every page past the end with its last page: the read stops at the repeat', async () => {
    // 6 listings, 2 a page; pages 3, 4, 5… all answer 5 and 6. VirtualCount right (6), low (4), none.
    for (const told of [6, 4, undefined]) {
      let calls = 0;
      const client = Object.assign(platformClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }), {
        listListings: async (request: { PageNumber?: number }): Promise<ListPage> => {
          calls++;
          const page = request.PageNumber ?? 1;
          const list =
            page === 1
              ? [record(1), record(2)]
              : page === 2
                ? [record(3), record(4)]
                : [record(5), record(6)];
          return { List: list, ...(told === undefined ? {} : { VirtualCount: told }) };
        },
      });
      const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 2, concurrency: 3 });
      expect(snapshot.listings.map((l) => l.id)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(snapshot.pages).toBe(3);
      expect(snapshot.drift[0]).toBe(
        'pages 4 and on repeated page 3 (the same listings): the platform answers past the end with its last page; the read stopped there',
      );
      // Not 10,000 pages: two batches past the end at most.
      expect(calls).toBeLessThanOrEqual(3 + 1 + 3);
      if (told === 6) {
        // A server's habit, not movement: nothing else to say, nothing to read again.
        expect(snapshot.drift).toHaveLength(1);
        expect(snapshot.moved).toBe(false);
      }
    }
  });

  it('one page of listings added ahead of the read between two page reads is no repeating server: every page is read', async () => {
    // Newest first, 2 a page, no VirtualCount: IDs 10 to 1. Just before page 3 is read, 12 and 11 are added
    // at the front: page 3 then holds 8 and 7, as page 2 did. Pages 4 and 5 hold 6 to 3, page 6 holds 2, 1.
    let ids = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    const client = Object.assign(platformClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }), {
      listListings: async (request: { PageNumber?: number }): Promise<ListPage> => {
        const page = request.PageNumber ?? 1;
        if (page === 3 && ids.length === 10) ids = [12, 11, ...ids];
        return { List: ids.slice((page - 1) * 2, page * 2).map(record) };
      },
    });
    const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 2, concurrency: 1 });
    expect(snapshot.listings.map((l) => l.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(snapshot.drift).toContain('2 listing ID(s) were returned on two pages');
    expect(snapshot.moved).toBe(true);
  });

  it('a server that caps its pages and counts only the page it gave: page 2 tells, every listing is read', async () => {
    // 105 listings, 40 a page at most whatever is asked, VirtualCount the page's own length.
    const all = Array.from({ length: 105 }, (_, i) => record(i + 1));
    const client = Object.assign(platformClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }), {
      listListings: async (request: { PageNumber?: number }): Promise<ListPage> => {
        const page = request.PageNumber ?? 1;
        const list = all.slice((page - 1) * 40, page * 40);
        return { List: list, VirtualCount: list.length };
      },
    });
    // A first run, and one whose last run left fewer (30: another feed or the dashboard added since).
    for (const expectedCount of [undefined, 30]) {
      const snapshot = await readSnapshot(client, {
        chatbot: 'S',
        pageSize: 100,
        concurrency: 2,
        ...(expectedCount === undefined ? {} : { expectedCount }),
      });
      expect(snapshot.listings).toHaveLength(105);
      expect(snapshot.drift[0]).toMatch(
        /^the platform answered 40 listings a page where 100 were asked, with VirtualCount 40/,
      );
    }
  });

  it('reads on past VirtualCount while the last page is full and should not be (the list grew)', async () => {
    const client = pagesClient({ 1: [record(1), record(2)], 2: [record(3), record(4)], 3: [record(5)] }, 3);
    const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 2, concurrency: 2 });
    expect(snapshot.listings.map((l) => l.id)).toEqual([1, 2, 3, 4, 5]);
    expect(snapshot.drift).toEqual([
      'page 3 was read beyond VirtualCount 3',
      'VirtualCount said 3, the pages held 5 distinct listings',
    ]);
  });
});

/**
 * A server of `total` listings at `cap` a page at most, read through `readPages` with a read that
 * says the first answer's VirtualCount (as the decoded snapshot does, off its bytes: `told`) before
 * the page is "decoded", which waits until `release` is called. The other pages are answered at
 * once, or held on the wire while `hold` is set. `events` says what was asked for, aborted, answered.
 */
function pagedServer(total: number, cap: number, told = total, firstPage?: () => PageRead<number>) {
  const events: string[] = [];
  let release = () => {};
  const decoded = new Promise<void>((done) => {
    release = done;
  });
  const state = { hold: false };
  let unhold = () => {};
  const held = new Promise<void>((done) => {
    unhold = done;
  });
  const read: PageReader<number> = async (page, { ahead, signal } = {}) => {
    events.push(`read ${page}`);
    const length = Math.max(0, Math.min(cap, total - (page - 1) * cap));
    if (page === 1) {
      ahead?.(told);
      await decoded;
      events.push('decoded 1');
      if (firstPage) return firstPage();
    } else if (state.hold) {
      await new Promise<void>((done, fail) => {
        held.then(done);
        signal?.addEventListener('abort', () => {
          events.push(`aborted ${page}`);
          fail(signal.reason);
        });
      });
    }
    return { length, virtualCount: total, page: length } satisfies PageRead<number>;
  };
  return { events, read, release, state, unhold };
}
const reads = (events: string[]) => events.filter((e) => e.startsWith('read')).length;
const tick = () => new Promise((r) => setTimeout(r, 10));

describe('readPages: reading ahead of the first page', () => {
  it('asks for the rest while the first page is decoded, each page once, all kept', async () => {
    const server = pagedServer(45, 10);
    const kept: number[] = [];
    const reading = readPages(server.read, (_, n) => void kept.push(n), { pageSize: 10, concurrency: 8 });
    await tick();
    // Before the first page is decoded, pages 2 to 5 are on their way.
    expect(server.events).toEqual(['read 1', 'read 2', 'read 3', 'read 4', 'read 5']);
    server.release();
    const pages = await reading;
    expect(pages.lengths).toEqual([10, 10, 10, 10, 5]);
    expect(kept.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(reads(server.events)).toBe(5);
  });

  it('with a server that caps the page size silently: the pages read ahead are the first of the real ones', async () => {
    // 45 listings, 10 asked a page, 4 given: the bytes say 45, so pages 2 to 5 are asked for ahead
    // (at the requested size); the decoded first page says 4 a page, so 12 pages in all.
    const server = pagedServer(45, 4);
    server.release();
    const kept: number[] = [];
    const pages = await readPages(server.read, (_, n) => void kept.push(n), { pageSize: 10, concurrency: 3 });
    expect(pages.sizes).toEqual({ requestedPageSize: 10, pageSize: 4, pages: 12 });
    expect(pages.lengths.reduce((a, b) => a + b, 0)).toBe(45);
    const asked = server.events.filter((e) => e.startsWith('read'));
    expect(asked.length).toBe(12);
    expect(new Set(asked).size).toBe(12);
    expect(kept.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('calls off what the decoded first page does not count: on the wire aborted, none kept', async () => {
    // The bytes said 60 (6 pages); the page says 25 (3 pages): pages 4 to 6 are not wanted.
    const server = pagedServer(25, 10, 60);
    server.state.hold = true;
    const kept: number[] = [];
    const reading = readPages(server.read, (_, n) => void kept.push(n), { pageSize: 10, concurrency: 8 });
    await tick();
    expect(reads(server.events)).toBe(6);
    server.release();
    await tick();
    expect(server.events.filter((e) => e.startsWith('aborted')).sort()).toEqual([
      'aborted 4',
      'aborted 5',
      'aborted 6',
    ]);
    server.unhold();
    const pages = await reading;
    expect(pages.lengths).toEqual([10, 10, 5]);
    expect(kept.sort()).toEqual([1, 2, 3]);
  });

  it('a first page that fails after its count was read: the pages on the wire are aborted, no other is asked for', async () => {
    // 2,000 listings at 10 a page: 199 pages read ahead, 4 at a time.
    const server = pagedServer(2000, 10, 2000, () => {
      throw new Error('page 1 did not decode');
    });
    server.state.hold = true;
    const reading = readPages(server.read, () => {}, { pageSize: 10, concurrency: 4 });
    await tick();
    expect(reads(server.events)).toBe(5);
    server.release();
    await expect(reading).rejects.toThrow('page 1 did not decode');
    await tick();
    expect(server.events.filter((e) => e.startsWith('aborted')).length).toBe(4);
    server.unhold();
    await tick();
    expect(reads(server.events)).toBe(5);
  });

  it('an empty first page whose count says more: refused, and nothing read ahead is kept or goes on', async () => {
    const server = pagedServer(50, 10, 50, () => ({ length: 0, virtualCount: 50, page: 0 }));
    server.state.hold = true;
    const kept: number[] = [];
    const reading = readPages(server.read, (_, n) => void kept.push(n), { pageSize: 10, concurrency: 2 });
    await tick();
    server.release();
    await expect(reading).rejects.toThrow(/^the first page of listings is empty although VirtualCount is 50/);
    expect(kept).toEqual([]);
    await tick();
    expect(server.events.filter((e) => e.startsWith('aborted')).sort()).toEqual(['aborted 2', 'aborted 3']);
    server.unhold();
    await tick();
    expect(reads(server.events)).toBe(3);
  });

  it('an empty first page of a list that says it holds listings is refused, not read as an empty chatbot', async () => {
    const client = pagesClient({ 2: [record(1)] }, 50);
    await expect(readSnapshot(client, { chatbot: 'S', pageSize: 10_000, concurrency: 2 })).rejects.toThrow(
      'the first page of listings is empty although VirtualCount is 50; refusing a snapshot that would look empty (is api.pageSize 10000 above what the platform serves?)',
    );
    // An empty chatbot (no count, or 0) is one.
    expect(
      (await readSnapshot(pagesClient({}, 0), { chatbot: 'S', pageSize: 10, concurrency: 2 })).listings,
    ).toEqual([]);
  });

  it('the last run’s count: its pages are asked for with the first, before the first answers', async () => {
    // Page 1 answers only when let go; the others at once.
    let answer = () => {};
    const answered = new Promise<void>((done) => {
      answer = done;
    });
    const events: string[] = [];
    const read: PageReader<number> = async (page, { ahead } = {}) => {
      events.push(`read ${page}`);
      if (page === 1) {
        await answered;
        ahead?.(45);
      }
      const length = Math.max(0, Math.min(10, 45 - (page - 1) * 10));
      return { length, virtualCount: 45, page: length };
    };
    const reading = readPages(read, () => {}, { pageSize: 10, concurrency: 8, expectedCount: 45 });
    await tick();
    expect(events).toEqual(['read 1', 'read 2', 'read 3', 'read 4', 'read 5']);
    answer();
    expect((await reading).lengths).toEqual([10, 10, 10, 10, 5]);
    expect(events).toHaveLength(5);
  });

  it('a last run’s count above the first answer’s: the pages it does not imply are called off', async () => {
    // 25 listings now, 60 at the last run. Page 1 answers when let go; the others are held on the wire.
    let answer = () => {};
    const answered = new Promise<void>((done) => {
      answer = done;
    });
    const events: string[] = [];
    const read: PageReader<number> = async (page, { ahead, signal } = {}) => {
      events.push(`read ${page}`);
      if (page === 1) {
        await answered;
        ahead?.(25);
      } else if (page > 3) {
        await new Promise<void>((_, fail) =>
          signal?.addEventListener('abort', () => {
            events.push(`aborted ${page}`);
            fail(signal.reason);
          }),
        );
      }
      const length = Math.max(0, Math.min(10, 25 - (page - 1) * 10));
      return { length, virtualCount: 25, page: length };
    };
    const kept: number[] = [];
    const reading = readPages(read, (_, n) => void kept.push(n), {
      pageSize: 10,
      concurrency: 8,
      expectedCount: 60,
    });
    await tick();
    expect(reads(events)).toBe(6);
    answer();
    // Its bytes say 25: pages 4 to 6, asked for by the last count, are called off at once.
    expect((await reading).lengths).toEqual([10, 10, 5]);
    expect(events.filter((e) => e.startsWith('aborted')).sort()).toEqual([
      'aborted 4',
      'aborted 5',
      'aborted 6',
    ]);
    expect(kept.sort()).toEqual([1, 2, 3]);
  });

  it('a last run’s count below the first answer’s: the rest are asked for off the first answer, each once', async () => {
    const server = pagedServer(45, 10);
    const kept: number[] = [];
    const reading = readPages(server.read, (_, n) => void kept.push(n), {
      pageSize: 10,
      concurrency: 8,
      expectedCount: 20,
    });
    await tick();
    expect(server.events).toEqual(['read 1', 'read 2', 'read 3', 'read 4', 'read 5']);
    server.release();
    expect((await reading).lengths).toEqual([10, 10, 10, 10, 5]);
    expect(kept.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(reads(server.events)).toBe(5);
  });

  it('a server without a count: the pages asked for by the last run’s count are read in turn, not asked again', async () => {
    const events: string[] = [];
    const read: PageReader<number> = async (page) => {
      events.push(`read ${page}`);
      // The first answer comes once the pages asked with it are out.
      if (page === 1) await tick();
      const length = Math.max(0, Math.min(10, 45 - (page - 1) * 10));
      return { length, virtualCount: undefined, page: length };
    };
    const pages = await readPages(read, () => {}, { pageSize: 10, concurrency: 8, expectedCount: 45 });
    expect(pages.lengths).toEqual([10, 10, 10, 10, 5]);
    // Each page once: 2 to 5 asked with page 1, then 6 to 9 (one batch past the short page 5).
    expect(events.filter((e) => e === 'read 2')).toHaveLength(1);
    expect(new Set(events).size).toBe(events.length);
  });

  it('a page being decoded is no longer on the wire: the next goes out, twice `concurrency` read at most', async () => {
    let decode = () => {};
    const decoding = new Promise<void>((done) => {
      decode = done;
    });
    const events: string[] = [];
    let onWire = 0;
    let mostOnWire = 0;
    const read: PageReader<number> = async (page, { answered } = {}) => {
      events.push(`read ${page}`);
      onWire++;
      mostOnWire = Math.max(mostOnWire, onWire);
      await tick();
      onWire--;
      const length = Math.max(0, Math.min(10, 65 - (page - 1) * 10));
      if (page === 1) return { length, virtualCount: 65, page: length };
      answered?.();
      await decoding;
      return { length, virtualCount: 65, page: length };
    };
    const reading = readPages(read, () => {}, { pageSize: 10, concurrency: 2, expectedCount: 65 });
    for (let i = 0; i < 5; i++) await tick();
    // Pages 2 to 7 asked by the last count: 2 on the wire at once, 4 read at once (page 1 aside).
    expect(events).toEqual(['read 1', 'read 2', 'read 3', 'read 4', 'read 5']);
    expect(mostOnWire).toBeLessThanOrEqual(3);
    decode();
    expect((await reading).lengths).toEqual([10, 10, 10, 10, 10, 10, 5]);
    expect(events).toHaveLength(7);
  });

  it('reads nothing ahead for a count that says one page, or more pages than allowed', async () => {
    // A small chatbot's everyday run: the last run found 7 too.
    const one = pagedServer(7, 10);
    one.release();
    expect(
      (await readPages(one.read, () => {}, { pageSize: 10, concurrency: 8, expectedCount: 7 })).lengths,
    ).toEqual([7]);
    expect(one.events).toEqual(['read 1', 'decoded 1']);
    // Without a last run that found so few, a count equal to a short page's length is checked with page 2.
    const first = pagedServer(7, 10);
    first.release();
    expect((await readPages(first.read, () => {}, { pageSize: 10, concurrency: 8 })).lengths).toEqual([7]);
    expect(first.events).toEqual(['read 1', 'decoded 1', 'read 2']);
    const lying = pagedServer(7, 10, 1_000_000);
    lying.release();
    await readPages(lying.read, () => {}, { pageSize: 10, concurrency: 8, maxPages: 50, expectedCount: 7 });
    expect(lying.events).toEqual(['read 1', 'decoded 1']);
  });
});

describe('virtualCountOf', () => {
  const of = (text: string) => virtualCountOf(new TextEncoder().encode(text));
  it('reads the count off the bytes, the last one, JSON whitespace allowed', () => {
    expect(of('{"Data":{"List":[],"VirtualCount":9950},"Code":200}')).toBe(9950);
    expect(of('{"Data":{"VirtualCount" :1, "List":[{"VirtualCount": 2}]}}')).toBe(2);
    expect(of('{"Data":{"List":[{"VirtualCount": 2}], "VirtualCount" :1}}')).toBe(1);
    expect(of('{"Data":{"List":[],"VirtualCount":\n  12}}')).toBe(12);
    expect(of('{"Data":{"List":[],"VirtualCount" : "250"}}')).toBe(250);
    expect(of('{"Data":{"List":[],"VirtualCount":"25x"}}')).toBeUndefined();
    expect(of('{"Data":{"List":[],"VirtualCount"}}')).toBeUndefined();
    expect(of('{"Data":{"List":[]}}')).toBeUndefined();
    expect(of('{"Data":{"List":[],"VirtualCount":null}}')).toBeUndefined();
    // A key inside a string value is escaped, so it is not one.
    expect(of('{"Data":{"List":[{"Note":"\\"VirtualCount\\":5"}]}}')).toBeUndefined();
    expect(of('{"VirtualCount":99999999999999999999}')).toBeUndefined();
    expect(of('{"VirtualCount":12345678901234567}')).toBeUndefined();
  });

  it('reads it alike from the pieces an answer arrived in, wherever they were cut', () => {
    const bytes = new TextEncoder().encode('{"Data":{"List":[{"ID":1}],"VirtualCount" : "250"},"Code":200}');
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(virtualCountOf([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toBe(250);
      expect(
        virtualCountOf([bytes.subarray(0, cut), bytes.subarray(cut, cut + 1), bytes.subarray(cut + 1)]),
      ).toBe(250);
    }
  });
});
