import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttp, httpOnFirstUse, isRequestError } from '../../src/http/index.ts';
import { type TestServer, withServer } from '../helpers/with-server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** `/moved` redirects to `/here`; `/here` answers gzip; `/broken` answers 503 with Retry-After. */
async function start(): Promise<TestServer> {
  server = await withServer((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/here' });
      res.end();
      return;
    }
    if (req.url === '/broken') {
      res.writeHead(503, { 'retry-after': '2' });
      res.end('busy');
      return;
    }
    res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
    res.end(gzipSync('hello'));
  });
  return server;
}

describe('createHttp', () => {
  it('returns an error status instead of throwing, and never retries by itself', async () => {
    const { url, requests } = await start();
    const response = await (await createHttp())(`${url}/broken`);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(requests).toHaveLength(1);
  });

  it('does not follow a redirect unless asked to', async () => {
    const { url } = await start();
    expect((await (await createHttp())(`${url}/moved`)).statusCode).toBe(302);
    const followed = await (await createHttp({ followRedirect: true }))(`${url}/moved`);
    expect(followed.statusCode).toBe(200);
    expect(followed.body).toBe('hello');
  });

  it('decompresses unless told not to', async () => {
    const { url } = await start();
    expect((await (await createHttp())(`${url}/here`)).body).toBe('hello');
    const raw = await (await createHttp({ decompress: false }))(`${url}/here`, { responseType: 'buffer' });
    expect(Buffer.from(raw.body)).toEqual(gzipSync('hello'));
  });

  it('made on first use, once: got errors are request errors once got is loaded', async () => {
    const { url } = await start();
    const http = httpOnFirstUse();
    const [a, b] = [http(), http()];
    expect(await a).toBe(await b);
    const failed = await (await a)(`http://127.0.0.1:1/`).catch((error: unknown) => error);
    expect(isRequestError(failed)).toBe(true);
    expect(isRequestError(new Error('ours'))).toBe(false);
    expect((await (await a)(`${url}/here`)).body).toBe('hello');
  });
});
