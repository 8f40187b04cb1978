import { getEventListeners, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';
import { brotliCompressSync, createGzip, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyRequestError, isRequestError } from '../../src/http/failure.ts';
import { PostError, postForBytes, postForChunks, postForStream } from '../../src/http/post.ts';
import { hasOpenssl, runTrusting, selfSigned } from '../helpers/tls-cert.ts';
import { sendJson, type TestServer, withServer } from '../helpers/with-server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const json = { 'content-type': 'application/json' };
const POST_TS = resolve(import.meta.dirname, '../../src/http/post.ts');

async function failureOf(promise: Promise<unknown>): Promise<PostError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PostError);
  expect(isRequestError(error)).toBe(true);
  return error as PostError;
}

describe('postForBytes', () => {
  it('sends the JSON body with its byte length and the given headers, and answers any status', async () => {
    server = await withServer((_req, res) => sendJson(res, 503, { busy: true }, { 'retry-after': '3' }));
    const body = JSON.stringify({ City: 'Montréal', Note: '東京 🏠' });
    const answer = await postForBytes(`${server.url}/x`, {
      headers: { ...json, authorization: 'sk-1' },
      body,
      timeoutMs: 2000,
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ busy: true });
    const [request] = server.requests;
    expect(request?.body).toEqual({ City: 'Montréal', Note: '東京 🏠' });
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(request?.headers.authorization).toBe('sk-1');
    expect(request?.headers['accept-encoding']).toBe('gzip, deflate, br, zstd');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['zstd', zstdCompressSync],
  ] as const)('decodes a %s answer', async (encoding, compress) => {
    const text = JSON.stringify({ Data: 'x'.repeat(100_000) });
    server = await withServer((_req, res) => {
      res.writeHead(200, { ...json, 'content-encoding': encoding });
      res.end(compress(text));
    });
    const answer = await postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 2000 });
    expect(answer.body.toString('utf8')).toBe(text);
  });

  it('hands a large answer over in the pieces it arrived in, uncopied: each read a buffer of its own (a thread can take them over), the first one past its head', async () => {
    const text = JSON.stringify({ Data: 'é'.repeat(300_000) });
    server = await withServer((_req, res) => {
      res.writeHead(200, { ...json, 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
    const answer = await postForChunks(server.url, { headers: json, body: '{}', timeoutMs: 2000 });
    expect(answer.body.length).toBeGreaterThan(1);
    const [first, ...rest] = answer.body;
    for (const piece of rest) {
      expect(piece.byteOffset).toBe(0);
      expect(piece.byteLength).toBe(piece.buffer.byteLength);
    }
    // The body's first bytes are a view of the read that brought the head, not a copy of them.
    const read = Buffer.from(first?.buffer as ArrayBuffer);
    expect(read.toString('latin1', 0, 15)).toBe('HTTP/1.1 200 OK');
    expect(read.subarray(first?.byteOffset).equals(first as Buffer)).toBe(true);
    expect(Buffer.concat(answer.body).toString('utf8')).toBe(text);
    // A compressed answer is one piece, decoded.
    await server.close();
    server = await withServer((_req, res) => {
      res.writeHead(200, { ...json, 'content-encoding': 'gzip' });
      res.end(gzipSync(text));
    });
    const decoded = await postForChunks(server.url, { headers: json, body: '{}', timeoutMs: 2000 });
    expect(decoded.body).toHaveLength(1);
    expect(decoded.body[0]?.toString('utf8')).toBe(text);
  });

  it('reads an empty answer as empty whatever its encoding says: a bare 429 keeps its status', async () => {
    server = await withServer((_req, res) => {
      res.writeHead(429, { 'content-encoding': 'gzip', 'retry-after': '7' });
      res.end();
    });
    const answer = await postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 2000 });
    expect(answer.statusCode).toBe(429);
    expect(answer.headers['retry-after']).toBe('7');
    expect(answer.body.length).toBe(0);
  });

  it('fails a corrupt compressed answer as a decoding error', async () => {
    server = await withServer((_req, res) => {
      res.writeHead(200, { ...json, 'content-encoding': 'gzip' });
      res.end('this is not gzip');
    });
    const error = await failureOf(postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 2000 }));
    expect(error.code).toBe('ERR_CONTENT_DECODING');
  });

  it.each([
    ['gzip', gzipSync],
    ['zstd', zstdCompressSync],
  ] as const)('bounds a %s answer once decoded, not only as it came', async (encoding, compress) => {
    server = await withServer((_req, res) => {
      res.writeHead(200, { ...json, 'content-encoding': encoding });
      res.end(compress(Buffer.alloc(1 << 20, 'x')));
    });
    const error = await failureOf(
      postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 2000, maxBytes: 100_000 }),
    );
    expect(error.code).toBe('ERR_RESPONSE_TOO_LARGE');
  });

  it('refuses a header Node cannot send as never sent and not worth retrying', async () => {
    server = await withServer((_req, res) => sendJson(res, 200, {}));
    const error = await failureOf(
      postForBytes(server.url, { headers: { authorization: 'sk-1\nx: y' }, body: '{}', timeoutMs: 2000 }),
    );
    expect(classifyRequestError(error)).toMatchObject({ retryable: false, requestSent: false });
    expect(server.requests).toHaveLength(0);
  });

  it('stops an answer over its size bound, as a failure not worth retrying', async () => {
    server = await withServer((_req, res) => {
      res.writeHead(200, json);
      res.end('x'.repeat(64 * 1024));
    });
    const error = await failureOf(
      postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 2000, maxBytes: 1000 }),
    );
    expect(error.code).toBe('ERR_RESPONSE_TOO_LARGE');
    expect(classifyRequestError(error)).toMatchObject({ kind: 'network', retryable: false });
  });

  it('bounds the whole attempt: a server that answers its headers and then stalls times out', async () => {
    server = await withServer((_req, res) => {
      res.writeHead(200, json);
      res.write('{"Data":');
    });
    const error = await failureOf(postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 150 }));
    expect(error.code).toBe('ETIMEDOUT');
    expect(classifyRequestError(error)).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('is aborted by its signal, before it starts and while it waits', async () => {
    server = await withServer(() => {});
    const before = await failureOf(
      postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 2000, signal: AbortSignal.abort() }),
    );
    expect(before.code).toBe('ERR_ABORTED');
    expect(server.requests).toHaveLength(0);
    const controller = new AbortController();
    const pending = postForBytes(server.url, {
      headers: json,
      body: '{}',
      timeoutMs: 5000,
      signal: controller.signal,
    });
    await sleep(50);
    controller.abort();
    const during = await failureOf(pending);
    expect(classifyRequestError(during)).toMatchObject({ kind: 'aborted' });
  });

  it("lets go of a long-lived signal once answered: a run's signal sees a million calls", async () => {
    server = await withServer((_req, res) => sendJson(res, 200, { ok: true }));
    const { signal } = new AbortController();
    for (let i = 0; i < 20; i++)
      await postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 2000, signal });
    const streamed = await postForStream(server.url, { headers: json, body: '{}', timeoutMs: 2000, signal });
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    for await (const _ of streamed.body);
    await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('reports a refused connection as never sent, and a connection cut mid-answer as sent', async () => {
    const refused = await failureOf(
      postForBytes('http://127.0.0.1:9', { headers: json, body: '{}', timeoutMs: 2000 }),
    );
    expect(refused.code).toBe('ECONNREFUSED');
    expect(classifyRequestError(refused)).toMatchObject({ retryable: true, requestSent: false });

    server = await withServer((req, res) => {
      res.writeHead(200, json);
      res.write('{"Data":');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const cut = await failureOf(postForBytes(server.url, { headers: json, body: '{}', timeoutMs: 2000 }));
    expect(classifyRequestError(cut)).toMatchObject({ kind: 'network', retryable: true, requestSent: true });
  });

  it('refuses a URL it cannot POST to', async () => {
    const error = await failureOf(
      postForBytes('ftp://example.test/x', { headers: json, body: '{}', timeoutMs: 100 }),
    );
    expect(error.code).toBe('ERR_INVALID_URL');
    expect(classifyRequestError(error).retryable).toBe(false);
  });

  it('keeps the connection alive: many calls, 4 at a time, over at most 4 sockets', async () => {
    const sockets = new Set<Socket>();
    const plain: Server = createServer((req, res) => {
      sockets.add(req.socket);
      req.resume().on('end', () => sendJson(res, 200, { ok: true }));
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    try {
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next++ < 200) {
            const answer = await postForBytes(url, { headers: json, body: '{}', timeoutMs: 2000 });
            expect(answer.statusCode).toBe(200);
          }
        }),
      );
      expect(sockets.size).toBeGreaterThan(0);
      expect(sockets.size).toBeLessThanOrEqual(4);
    } finally {
      plain.closeAllConnections();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});

describe('postForStream', () => {
  it('hands over the answer as it comes, and fails it when the server goes quiet between chunks', async () => {
    server = await withServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.write('data: two\n\n'), 50);
      // then nothing: the stream must fail rather than hang
    });
    const answer = await postForStream(server.url, { headers: json, body: '{}', timeoutMs: 300 });
    expect(answer.statusCode).toBe(200);
    let text = '';
    const error = await (async () => {
      for await (const chunk of answer.body) text += String(chunk);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(text).toBe('data: one\n\ndata: two\n\n');
    expect(error).toBeInstanceOf(PostError);
    expect((error as PostError).code).toBe('ETIMEDOUT');
  });

  it('ends a stream its signal aborts with the abort, not a reset', async () => {
    server = await withServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    });
    const controller = new AbortController();
    const answer = await postForStream(server.url, {
      headers: json,
      body: '{}',
      timeoutMs: 5000,
      signal: controller.signal,
    });
    const error = await (async () => {
      for await (const _ of answer.body) controller.abort();
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as PostError).code).toBe('ERR_ABORTED');
  });

  it('closes the connection of a compressed stream its reader leaves early', async () => {
    let closed: Promise<unknown> | undefined;
    server = await withServer((req, res) => {
      closed = once(req.socket, 'close');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const zip = createGzip();
      zip.pipe(res);
      zip.write('data: one\n\n');
      zip.flush();
      // and never ends
    });
    const answer = await postForStream(server.url, { headers: json, body: '{}', timeoutMs: 5000 });
    for await (const chunk of answer.body) {
      expect(String(chunk)).toBe('data: one\n\n');
      break;
    }
    const outcome = await Promise.race([closed?.then(() => 'closed'), sleep(1000).then(() => 'still open')]);
    expect(outcome).toBe('closed');
  });

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['zstd', zstdCompressSync],
  ] as const)('decodes a %s stream and ends it when the server does', async (encoding, compress) => {
    server = await withServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(compress('{"Data":{"content":"hi"}}'));
    });
    const answer = await postForStream(server.url, { headers: json, body: '{}', timeoutMs: 2000 });
    let text = '';
    for await (const chunk of answer.body) text += String(chunk);
    expect(text).toBe('{"Data":{"content":"hi"}}');
  });
});

describe('over TLS', () => {
  it.skipIf(!hasOpenssl)(
    'a new connection to the same platform resumes the TLS session of the last',
    async () => {
      const tlsCert = selfSigned('DNS:localhost,IP:127.0.0.1');
      try {
        const resumed: boolean[] = [];
        // Each answer closes its connection, so each POST opens one.
        const tls = createHttpsServer({ key: tlsCert.key, cert: tlsCert.cert }, (req, res) => {
          resumed.push((req.socket as TLSSocket).isSessionReused());
          req.resume().on('end', () => sendJson(res, 200, { Data: resumed.length }, { connection: 'close' }));
        });
        await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
        const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/chat`;
        try {
          const script = `import { postForBytes } from ${JSON.stringify(POST_TS)};
let out = '';
for (let i = 0; i < 3; i++) {
  const answer = await postForBytes(${JSON.stringify(url)}, { headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000 });
  out += answer.body.toString('utf8');
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.stdout.write(out);`;
          const { code, out } = await runTrusting(tlsCert.certFile, script);
          expect(out).toBe('{"Data":1}{"Data":2}{"Data":3}');
          expect(code).toBe(0);
          expect(resumed).toEqual([false, true, true]);
        } finally {
          tls.closeAllConnections();
          await new Promise<void>((resolve) => tls.close(() => resolve()));
        }
      } finally {
        tlsCert.remove();
      }
    },
  );

  it.skipIf(!hasOpenssl)(
    'posts to an https platform its CA trusts, and refuses one it does not, as a failure not worth retrying',
    async () => {
      const tlsCert = selfSigned('DNS:localhost,IP:127.0.0.1');
      try {
        const tls = createHttpsServer({ key: tlsCert.key, cert: tlsCert.cert }, (req, res) =>
          req.resume().on('end', () => sendJson(res, 200, { Data: req.headers['content-length'] })),
        );
        await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
        const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/chat`;
        try {
          // Not trusted by this process: the certificate error, never retried.
          const refused = await failureOf(postForBytes(url, { headers: json, body: '{}', timeoutMs: 2000 }));
          expect(classifyRequestError(refused)).toMatchObject({ kind: 'network', retryable: false });
          expect(refused.code).toMatch(/CERT/);
          // A process that trusts it (NODE_EXTRA_CA_CERTS, read at start) gets the answer.
          const script = `import { postForBytes } from ${JSON.stringify(POST_TS)};
const answer = await postForBytes(${JSON.stringify(url)}, { headers: { 'content-type': 'application/json' }, body: '{"a":"é"}', timeoutMs: 2000 });
process.stdout.write(answer.statusCode + ' ' + answer.body.toString('utf8'));`;
          const { code, out } = await runTrusting(tlsCert.certFile, script);
          expect(code).toBe(0);
          expect(out).toBe('200 {"Data":"10"}');
        } finally {
          tls.closeAllConnections();
          await new Promise<void>((resolve) => tls.close(() => resolve()));
        }
      } finally {
        tlsCert.remove();
      }
    },
  );
});
