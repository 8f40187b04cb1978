import { afterEach, expect, it } from 'vitest';
import { byteLengthOf } from '../../src/api/index.ts';
import { platformClient } from '../helpers/platform-client.ts';
import { ok, sendJson, type TestServer, withServer } from '../helpers/with-server.ts';

/**
 * A page given to `listListingsDecoded` is decoded once its request has left the limiter's slot
 * (issue 23 §3: a page decoded in the decode thread kept the next request from going out). A small
 * answer, as every error envelope is, is decoded inside it, so the limiter still sees its Code.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A list server whose every answer carries `bytes` bytes of padding; the pages asked for, in order. */
async function listServer(bytes: number) {
  const asked: number[] = [];
  server = await withServer((_req, res, body) => {
    asked.push((body as { PageNumber: number }).PageNumber);
    sendJson(res, 200, ok({ List: [], VirtualCount: 0, Note: 'x'.repeat(bytes) }));
  });
  // One request at a time.
  return { asked, client: platformClient({ baseUrl: server.url, concurrency: 1 }) };
}

const request = (page: number) => ({ SerialNumber: 'SN-1', PageNumber: page, PageSize: 10 });

it('a page being decoded does not hold the only slot: the next request goes out meanwhile', async () => {
  const { asked, client } = await listServer(64 * 1024);
  let decodeFirst = () => {};
  const firstDecoded = new Promise<void>((done) => {
    decodeFirst = done;
  });
  const first = client.listListingsDecoded(request(1), async (body) => {
    await firstDecoded;
    return byteLengthOf(body);
  });
  const second = await client.listListingsDecoded(request(2), async (body) => byteLengthOf(body));
  expect(second).toBeGreaterThan(64 * 1024);
  expect(asked).toEqual([1, 2]);
  decodeFirst();
  expect(await first).toBeGreaterThan(64 * 1024);
});

it('a small answer is decoded inside its slot: the next request waits for it', async () => {
  const { asked, client } = await listServer(10);
  let decodeFirst = () => {};
  const firstDecoded = new Promise<void>((done) => {
    decodeFirst = done;
  });
  let firstDone = false;
  const first = client
    .listListingsDecoded(request(1), async () => {
      await firstDecoded;
      return 1;
    })
    .then((n) => {
      firstDone = true;
      return n;
    });
  const second = client.listListingsDecoded(request(2), async () => (firstDone ? 'after' : 'before'));
  await expect.poll(() => asked).toEqual([1]);
  await new Promise((r) => setTimeout(r, 50));
  expect(asked).toEqual([1]);
  decodeFirst();
  expect(await first).toBe(1);
  expect(await second).toBe('after');
  expect(asked).toEqual([1, 2]);
});

it('an attempt called off while it waits for a slot is no call: no event, nothing sent', async () => {
  const events: string[] = [];
  server = await withServer((_req, res) => sendJson(res, 200, ok({ List: [], VirtualCount: 0 })));
  const client = platformClient(
    { baseUrl: server.url, concurrency: 1 },
    { onCall: (event) => events.push(`${event.operation} ${event.outcome}`) },
  );
  let decodeFirst = () => {};
  const firstDecoded = new Promise<void>((done) => {
    decodeFirst = done;
  });
  // A small answer is decoded inside its slot: the only slot stays taken until it is.
  const first = client.listListingsDecoded(request(1), async () => {
    await firstDecoded;
    return 1;
  });
  const stop = new AbortController();
  const second = client.listListingsDecoded(request(2), async () => 2, { signal: stop.signal });
  await new Promise((r) => setTimeout(r, 20));
  stop.abort();
  // It learns it was called off when the slot frees.
  decodeFirst();
  await expect(second).rejects.toThrow();
  expect(await first).toBe(1);
  expect(events).toEqual(['list ok']);
  expect(server.requests).toHaveLength(1);
});
