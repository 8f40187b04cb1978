import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { platformClient } from '../helpers/platform-client.ts';

/**
 * A page given to `listListingsDecoded` is decoded once its request has left the limiter's slot
 * (issue 23 §3: a page decoded in the decode thread kept the next request from going out). A small
 * answer, as every error envelope is, is decoded inside it, so the limiter still sees its Code.
 */
let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function listServer(bytesOfPage: (page: number) => number) {
  const asked: number[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const page = (JSON.parse(body) as { PageNumber: number }).PageNumber;
      asked.push(page);
      const note = 'x'.repeat(bytesOfPage(page));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ Data: { List: [], VirtualCount: 0, Note: note }, Success: true, Code: 200 }));
    });
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  // One request at a time.
  return { asked, client: platformClient({ baseUrl: `http://127.0.0.1:${port}`, concurrency: 1 }) };
}

const request = (page: number) => ({ SerialNumber: 'SN-1', PageNumber: page, PageSize: 10 });

it('a page being decoded does not hold the only slot: the next request goes out meanwhile', async () => {
  const { asked, client } = await listServer(() => 64 * 1024);
  let decodeFirst = () => {};
  const firstDecoded = new Promise<void>((done) => {
    decodeFirst = done;
  });
  const first = client.listListingsDecoded(request(1), async (body) => {
    await firstDecoded;
    return body.byteLength;
  });
  const second = await client.listListingsDecoded(request(2), async (body) => body.byteLength);
  expect(second).toBeGreaterThan(64 * 1024);
  expect(asked).toEqual([1, 2]);
  decodeFirst();
  expect(await first).toBeGreaterThan(64 * 1024);
});

it('a small answer is decoded inside its slot: the next request waits for it', async () => {
  const { asked, client } = await listServer(() => 10);
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
