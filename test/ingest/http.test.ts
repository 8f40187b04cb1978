import { readFile } from 'node:fs/promises';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import { type FeedOverrides, fixtureFeed } from '../helpers/fixture-feeds.ts';
import { fixture, type TestServer, withServer } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TSV = () => readFile(fixture('csv/tab-inferred.tsv'));
/** The tab-inferred fixture feed, served at `url` instead of read from its file. */
const tsvFeed = (url: string, source: FeedOverrides['source'] = {}) =>
  fixtureFeed('tab-inferred', { source: { path: undefined, url, retries: 2, ...source } });

describe('HTTP transport', () => {
  it('sends validators and reports 304 as not modified, saving new validators only from a 200', async () => {
    const body = await TSV();
    server = await withServer((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { etag: '"v1"', 'last-modified': 'Wed, 01 May 2024 06:00:00 GMT' }).end(body);
    });
    const first = await ingestFeed(tsvFeed(`${server.url}/feed.tsv`), { state: {} });
    expect(first.notModified).toBe(false);
    expect(first.sourceState).toEqual({ etag: '"v1"', lastModified: 'Wed, 01 May 2024 06:00:00 GMT' });
    const second = await ingestFeed(tsvFeed(`${server.url}/feed.tsv`), { state: first.sourceState });
    expect(second).toMatchObject({ notModified: true, listings: [], sourceState: {} });
    expect(server.requests[1]?.headers['if-modified-since']).toBe('Wed, 01 May 2024 06:00:00 GMT');
    const forced = await ingestFeed(tsvFeed(`${server.url}/feed.tsv`), {
      state: first.sourceState,
      forceFull: true,
    });
    expect(forced.notModified).toBe(false);
  });

  it('decompresses gzip content-encoding and .gz bodies, follows redirects, sends basic auth', async () => {
    const body = await TSV();
    server = await withServer((req, res) => {
      if (req.url === '/old') return void res.writeHead(301, { location: '/feed.tsv' }).end();
      if (req.headers.authorization !== `Basic ${Buffer.from('user:s3cret').toString('base64')}`) {
        return void res.writeHead(401).end();
      }
      if (req.url === '/feed.tsv.gz')
        return void res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(body));
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(body));
    });
    const auth = { type: 'basic', username: 'user', password: 's3cret' } as const;
    expect((await ingestFeed(tsvFeed(`${server.url}/old`, { auth }), { state: {} })).stats.valid).toBe(3);
    expect(
      (await ingestFeed(tsvFeed(`${server.url}/feed.tsv.gz`, { auth }), { state: {} })).stats.valid,
    ).toBe(3);
  });

  it('sends bearer and custom-header auth, and decompresses deflate', async () => {
    const body = await TSV();
    server = await withServer((req, res) => {
      if (req.headers.authorization !== 'Bearer T0K3N' && req.headers['x-api-key'] !== 'K3Y')
        return void res.writeHead(401).end();
      res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync(body));
    });
    const bearer = { type: 'bearer', token: 'T0K3N' } as const;
    const header = { type: 'header', name: 'X-Api-Key', value: 'K3Y' } as const;
    for (const auth of [bearer, header]) {
      const result = await ingestFeed(tsvFeed(`${server.url}/feed.tsv`, { auth }), { state: {} });
      expect(result.stats.valid).toBe(3);
    }
    expect(server.requests.map((r) => r.headers['accept-encoding'])).toEqual([
      expect.stringContaining('deflate'),
      expect.stringContaining('deflate'),
    ]);
  });

  it('times out a server that never answers, as a retryable E_FEED_FETCH', async () => {
    server = await withServer((_req, res) => {
      // Headers never sent: got's response timeout fires.
      setTimeout(() => res.destroy(), 5_000).unref();
    });
    const error = (await ingestFeed(tsvFeed(`${server.url}/feed.tsv`, { timeoutMs: 150, retries: 0 }), {
      state: {},
    }).catch((e: unknown) => e)) as Error & { code: string; retryable: boolean };
    expect(error.code).toBe('E_FEED_FETCH');
    expect(error.message).toMatch(/timeout/);
    expect(error.retryable).toBe(true);
  });

  it('retries 503 with the one retry policy, honouring Retry-After', async () => {
    const body = await TSV();
    server = await withServer((_req, res, n) => {
      if (n < 3) return void res.writeHead(503, { 'retry-after': '0' }).end();
      res.writeHead(200).end(body);
    });
    const result = await ingestFeed(tsvFeed(`${server.url}/feed.tsv`), { state: {} });
    expect(result.stats.valid).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it('names the host and the number of attempts when it gives up', async () => {
    server = await withServer((_req, res) => void res.writeHead(503, { 'retry-after': '0' }).end());
    const error = (await ingestFeed(tsvFeed(`${server.url}/feed.tsv`), { state: {} }).catch(
      (e: unknown) => e,
    )) as Error & { code: string; retryable: boolean };
    expect(error.message).toBe(
      `feed tab-inferred: cannot fetch ${server.url}/feed.tsv after 3 attempts: HTTP 503`,
    );
    expect(error).toMatchObject({ code: 'E_FEED_FETCH', retryable: true });
  });

  it('fails with E_FEED_FETCH naming the status, without credentials or query', async () => {
    server = await withServer((_req, res) => void res.writeHead(404).end('nope'));
    const url = `${server.url.replace('http://', 'http://user:pw@')}/feed.tsv?token=SECRET`;
    const error = (await ingestFeed(tsvFeed(url, { auth: { type: 'bearer', token: 'TOKEN123' } }), {
      state: {},
    }).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('E_FEED_FETCH');
    expect(error.message).toMatch(/HTTP 404/);
    expect(error.message).not.toMatch(/SECRET|TOKEN123|pw/);
    expect(server.requests).toHaveLength(1);
  });

  it('says where and how far a download got when it breaks off, without credentials or query', async () => {
    const plain = await TSV();
    const gzipped = gzipSync(plain);
    // The server announces more than it sends, then closes; or sends chunks without the last one.
    // How far: the bytes that came, of how many (a gzip Content-Encoding counted decoded, said so).
    const cases = [
      [
        'length',
        plain,
        `${plain.length} of ${plain.length + 1000} bytes`,
        'the server closed the connection before the end its Content-Length announced (ERR_HTTP_CONTENT_LENGTH_MISMATCH)',
      ],
      [
        'gzip',
        gzipped,
        `${plain.length} bytes (its gzip Content-Encoding undone)`,
        'the server closed the connection before the end its Content-Length announced (ERR_HTTP_CONTENT_LENGTH_MISMATCH)',
      ],
      [
        'chunked',
        plain,
        `${plain.length} bytes`,
        /the connection (was reset \(ECONNRESET\)|closed before the end of the body \(ERR_STREAM_PREMATURE_CLOSE\))/,
      ],
    ] as const;
    for (const [framing, body, far, said] of cases) {
      server = await withServer((_req, res) => {
        if (framing === 'chunked') res.writeHead(200, { 'transfer-encoding': 'chunked' });
        else
          res.writeHead(200, {
            'content-length': String(body.length + 1000),
            ...(framing === 'gzip' ? { 'content-encoding': 'gzip' } : {}),
          });
        res.write(body);
        setTimeout(() => res.socket?.destroy(), 20);
      });
      const url = `${server.url}/feed.tsv`;
      const error = (await ingestFeed(tsvFeed(`${url}?token=SECRET`), { state: {} }).catch(
        (e: unknown) => e,
      )) as Error & { code: string; retryable: boolean };
      expect(error).toMatchObject({ code: 'E_FEED_FETCH', retryable: true });
      const number = (n: string) => n.replace(/\d+/g, (d) => Number(d).toLocaleString('en-US'));
      const prefix = `feed tab-inferred: reading the feed failed after ${number(far)} of ${url}: `;
      expect(error.message.slice(0, prefix.length)).toBe(prefix);
      expect(error.message.slice(prefix.length)).toMatch(said);
      expect(error.message).not.toContain('SECRET');
      await server.close();
      server = undefined;
    }
  });

  it('says when a CSV was read to the connection’s close (no length, no chunks): its end cannot be checked', async () => {
    const body = await TSV();
    const framings = {
      length: (res: import('node:http').ServerResponse) => void res.writeHead(200).end(body),
      chunked: (res: import('node:http').ServerResponse) => {
        res.writeHead(200);
        res.write(body);
        res.end();
      },
      close: (res: import('node:http').ServerResponse) =>
        void res.socket?.end(
          Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n'), body]),
        ),
    };
    const seen: Record<string, unknown> = {};
    for (const [name, respond] of Object.entries(framings)) {
      server = await withServer((_req, res) => respond(res));
      const result = await ingestFeed(tsvFeed(`${server.url}/feed.tsv`), { state: {} });
      seen[name] = [result.stats.valid, result.unframed ?? false, result.sourceNote?.slice(0, 39)];
      await server.close();
      server = undefined;
    }
    expect(seen).toEqual({
      length: [3, false, undefined],
      chunked: [3, false, undefined],
      close: [3, true, 'read to the connection’s close: the ser'],
    });
  });
});
