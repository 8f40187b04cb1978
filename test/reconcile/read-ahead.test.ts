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
 * then fails to decode: its VirtualCount (30, 10 a page) still brought the requests for pages 2
 * and 3, over a real socket, and the read fails with the page's own error.
 */
it('asks for the rest of the pages off the first answer’s bytes, before it is decoded', async () => {
  const asked: number[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const page = (JSON.parse(body) as { PageNumber: number }).PageNumber;
      asked.push(page);
      // Page 1 is not a list the schema takes (an ID that is no number); the others are empty.
      const list = page === 1 ? [{ ID: 'not a number' }] : [];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ Data: { List: list, VirtualCount: 30 }, Success: true, Code: 200 }));
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
  // Pages 2 and 3 were asked for although page 1 never decoded: they were asked for off its bytes.
  await expect.poll(() => [...new Set(asked)].sort()).toEqual([1, 2, 3]);
});
