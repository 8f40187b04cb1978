import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { SchemaError } from '../../src/api/index.ts';
import { startDecodedSnapshot } from '../../src/reconcile/decoded-snapshot.ts';
import type { DesiredLoader } from '../../src/reconcile/desired.ts';
import { DesiredIndex } from '../../src/reconcile/desired-index.ts';
import { platformClient } from '../helpers/platform-client.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/**
 * The decoded snapshot reads the first answer's VirtualCount off its bytes and asks for the rest
 * before the first page is decoded (issue 23 §3: a no-op waited for it). Shown on a first page that
 * then fails to decode: its VirtualCount (2,000, 10 a page) brought requests for the next pages over
 * a real socket before it was decoded; once it failed, the ones on the wire were aborted and no
 * other was sent, and the read fails with the page's own error.
 */
it('asks for the rest of the pages off the first answer’s bytes, and calls them off when it fails', async () => {
  const asked: number[] = [];
  let open = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const page = (JSON.parse(body) as { PageNumber: number }).PageNumber;
      asked.push(page);
      // Page 1 is not a list the schema takes (an ID that is no number), at once; the others are
      // empty, and slow: they are on the wire when page 1 fails.
      const list = page === 1 ? [{ ID: 'not a number' }] : [];
      const answer = () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ Data: { List: list, VirtualCount: 2000 }, Success: true, Code: 200 }));
      };
      if (page === 1) answer();
      else {
        open++;
        const timer = setTimeout(answer, 2000);
        res.on('close', () => {
          open--;
          clearTimeout(timer);
        });
      }
    });
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const client = platformClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5000 });
  const snapshot = startDecodedSnapshot(client, {
    chatbot: 'SN-1',
    keyField: 'MLSNumber',
    tags: { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' },
    pageSize: 10,
    concurrency: 4,
  });
  const failed = await snapshot.read(new DesiredIndex(), {} as DesiredLoader).catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(SchemaError);
  // Pages were asked for although page 1 never decoded: off its bytes, 4 at a time (the limit).
  expect(asked.filter((page) => page > 1).length).toBeGreaterThan(0);
  expect(asked.filter((page) => page > 1).length).toBeLessThanOrEqual(4);
  // Those on the wire were aborted, and none of the other 195 was sent.
  await expect.poll(() => open).toBe(0);
  const sent = asked.length;
  await new Promise((r) => setTimeout(r, 300));
  expect(asked.length).toBe(sent);
});
