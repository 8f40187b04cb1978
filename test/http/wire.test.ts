import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyRequestError } from '../../src/http/failure.ts';
import { PostError, postForBytes } from '../../src/http/post.ts';
import { requestHead, type WireTarget, wireTarget } from '../../src/http/wire.ts';

/**
 * The platform's POSTs read whole (`src/http/wire.ts`) against servers that write their answers byte
 * by byte as HTTP/1.1 allows them: the framings `node:http` servers do not send in the other tests.
 */
let server: Server | undefined;
/** The connections of the server: the client keeps them alive, so they are cut for it to close. */
let accepted: Socket[] = [];
afterEach(async () => {
  if (!server) return;
  const closed = once(server, 'close');
  server.close();
  for (const socket of accepted) socket.destroy();
  await closed;
  server = undefined;
});

interface Raw {
  url: string;
  /** Every connection the server accepted, in order. */
  sockets: Socket[];
  /** Each request's head and body, as received. */
  requests: string[];
}

/**
 * A server that answers each request on a connection with `answer(n)` (n counts the requests of the
 * whole server from 1), written in `pieces` (every byte its own write when 'bytes').
 */
async function rawServer(
  answer: (n: number) => string | Buffer,
  pieces: 'whole' | 'bytes' = 'whole',
  after?: (socket: Socket, n: number) => void,
): Promise<Raw> {
  const raw: Raw = { url: '', sockets: [], requests: [] };
  accepted = raw.sockets;
  server = createServer((socket) => {
    raw.sockets.push(socket);
    let text = '';
    socket.on('error', () => {});
    socket.on('data', async (chunk) => {
      text += chunk.toString('latin1');
      for (;;) {
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        raw.requests.push(text.slice(0, end + 4 + length));
        text = text.slice(end + 4 + length);
        const n = raw.requests.length;
        const bytes = Buffer.from(answer(n));
        if (pieces === 'whole') socket.write(bytes);
        else
          for (const byte of bytes) {
            socket.write(Buffer.from([byte]));
            await sleep(0);
          }
        after?.(socket, n);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  raw.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/chat/x`;
  return raw;
}

const post = (url: string, body = '{"a":1}', timeoutMs = 2000) =>
  postForBytes(url, { headers: { 'content-type': 'application/json' }, body, timeoutMs });

const text = (answer: { body: Buffer }) => answer.body.toString('utf8');

describe('the platform wire', () => {
  it('sends one request head and body, and reads an answer split at every byte', async () => {
    const raw = await rawServer(
      () =>
        'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"ok":"é"}'.replace(
          '9',
          '11',
        ),
      'bytes',
    );
    const answer = await post(raw.url, '{"City":"Montréal"}');
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(text(answer)).toBe('{"ok":"é"}');
    const [request] = raw.requests;
    expect(request).toMatch(/^POST \/chat\/x HTTP\/1\.1\r\nHost: 127\.0\.0\.1:\d+\r\n/);
    expect(request).toContain('\r\ncontent-type: application/json\r\n');
    expect(request).toContain(`\r\nContent-Length: ${Buffer.byteLength('{"City":"Montréal"}')}\r\n\r\n`);
    expect(Buffer.from(request as string, 'latin1').toString('utf8')).toMatch(/\{"City":"Montréal"\}$/);
  });

  it('sends a frozen headers object as it was first sent, to each URL its own head, and reads a mutable one every time', async () => {
    const raw = await rawServer(() => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
    const frozen = Object.freeze({ 'content-type': 'application/json', authorization: 'sk-1' });
    const other = `${raw.url.replace(/\/chat\/x$/, '')}/chat/y`;
    for (const [url, body] of [
      [raw.url, '{"a":1}'],
      [other, '{"b":22}'],
      [raw.url, '{"c":333}'],
    ] as const)
      await postForBytes(url, { headers: frozen, body, timeoutMs: 2000 });
    const mutable: Record<string, string> = { authorization: 'sk-1' };
    await postForBytes(raw.url, { headers: mutable, body: '{}', timeoutMs: 2000 });
    mutable.authorization = 'sk-2';
    await postForBytes(raw.url, { headers: mutable, body: '{}', timeoutMs: 2000 });
    const [a, y, c, m1, m2] = raw.requests as [string, string, string, string, string];
    expect(a).toMatch(/^POST \/chat\/x HTTP\/1\.1\r\n/);
    expect(y).toMatch(/^POST \/chat\/y HTTP\/1\.1\r\n/);
    expect(c).toMatch(/^POST \/chat\/x HTTP\/1\.1\r\n/);
    // Each with its own length, after the same headers.
    expect(a).toContain('\r\nauthorization: sk-1\r\n');
    expect(a).toMatch(/\r\nContent-Length: 7\r\n\r\n\{"a":1\}$/);
    expect(y).toMatch(/\r\nContent-Length: 8\r\n\r\n\{"b":22\}$/);
    expect(c.replace(/\r\nContent-Length: 9\r\n\r\n\{"c":333\}$/, '')).toBe(
      a.replace(/\r\nContent-Length: 7\r\n\r\n\{"a":1\}$/, ''),
    );
    expect(m1).toContain('\r\nauthorization: sk-1\r\n');
    expect(m2).toContain('\r\nauthorization: sk-2\r\n');
    // The wire's own cache, by the headers object: a mutable one is read every time.
    const target = wireTarget(raw.url) as WireTarget;
    const headers: Record<string, string> = { authorization: 'sk-1' };
    expect(requestHead(target, headers, 2)).toContain('\r\nauthorization: sk-1\r\n');
    headers.authorization = 'sk-2';
    expect(requestHead(target, headers, 3)).toMatch(
      /\r\nauthorization: sk-2\r\n.*Content-Length: 3\r\n\r\n$/s,
    );
  });

  it('reads a chunked answer, its chunk extensions and trailers, split at every byte, and keeps the socket', async () => {
    const chunked =
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '5;name=x\r\n{"Dat\r\n' +
      'a\r\na":[1,2,3]\r\n' +
      '1\r\n}\r\n' +
      '0\r\nX-Trailer: yes\r\n\r\n';
    const raw = await rawServer(() => chunked, 'bytes');
    expect(text(await post(raw.url))).toBe('{"Data":[1,2,3]}');
    expect(text(await post(raw.url))).toBe('{"Data":[1,2,3]}');
    expect(raw.sockets).toHaveLength(1);
  });

  it('reads an answer without a length until the connection closes, and opens a new one for the next', async () => {
    const raw = await rawServer(
      () => 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"until":"close"}',
      'whole',
      (socket) => socket.end(),
    );
    expect(text(await post(raw.url))).toBe('{"until":"close"}');
    expect(text(await post(raw.url))).toBe('{"until":"close"}');
    expect(raw.sockets).toHaveLength(2);
  });

  it('skips an interim 100 Continue and reads the answer after it', async () => {
    const raw = await rawServer(
      () => 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}',
      'bytes',
    );
    const answer = await post(raw.url);
    expect(answer.statusCode).toBe(200);
    expect(text(answer)).toBe('{}');
  });

  it('closes a connection the server says it closes, or keeps alive for under a second', async () => {
    const raw = await rawServer((n) =>
      n === 1
        ? 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}'
        : n === 2
          ? 'HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 2\r\n\r\n{}'
          : 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}',
    );
    for (let i = 0; i < 4; i++) expect(text(await post(raw.url))).toBe('{}');
    // One connection a request: closed by the server's word, by a keep-alive too short, by HTTP/1.0.
    expect(raw.sockets).toHaveLength(4);
  });

  it('does not reuse a socket that got more bytes than its answer', async () => {
    const raw = await rawServer((n) =>
      n === 1
        ? 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}garbage'
        : 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]',
    );
    expect(text(await post(raw.url))).toBe('{}');
    expect(text(await post(raw.url))).toBe('[]');
    expect(raw.sockets).toHaveLength(2);
  });

  it('opens a new connection when the server closed the idle one', async () => {
    const raw = await rawServer(() => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
    expect(text(await post(raw.url))).toBe('{}');
    raw.sockets[0]?.end();
    await sleep(50);
    expect(text(await post(raw.url))).toBe('{}');
    expect(raw.sockets).toHaveLength(2);
  });

  it('fails an answer that is not HTTP as sent and worth another try', async () => {
    const raw = await rawServer(() => 'SSH-2.0-OpenSSH_9.6\r\n\r\n');
    const error = await post(raw.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostError);
    expect((error as PostError).code).toBe('HPE_INVALID_CONSTANT');
    expect(classifyRequestError(error)).toMatchObject({
      kind: 'network',
      retryable: true,
      requestSent: true,
    });
  });

  it('fails an answer cut before its length as a reset, and a bad chunk size as not HTTP', async () => {
    const cut = await rawServer(
      () => 'HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{"Data":',
      'whole',
      (socket) => socket.end(),
    );
    const reset = await post(cut.url).catch((e: unknown) => e);
    expect((reset as PostError).code).toBe('ECONNRESET');
    expect(classifyRequestError(reset)).toMatchObject({ retryable: true, requestSent: true });
    const closed = once(server as Server, 'close');
    server?.close();
    await closed;
    server = undefined;
    const bad = await rawServer(() => 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
    expect(((await post(bad.url).catch((e: unknown) => e)) as PostError).code).toBe('HPE_INVALID_CHUNK_SIZE');
  });

  it('keeps the first of a header Node reads once, joins the others, and refuses two framings', async () => {
    const raw = await rawServer((n) =>
      n === 1
        ? 'HTTP/1.1 429 Too Many\r\nRetry-After: 7\r\nRetry-After: 7\r\nVary: a\r\nVary: b\r\nContent-Length: 2\r\n\r\n{}'
        : n === 2
          ? 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\n{}'
          : 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    const limited = await post(raw.url);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.headers.vary).toBe('a, b');
    expect(((await post(raw.url).catch((e: unknown) => e)) as PostError).code).toBe(
      'HPE_UNEXPECTED_CONTENT_LENGTH',
    );
    expect(((await post(raw.url).catch((e: unknown) => e)) as PostError).code).toBe(
      'HPE_INVALID_TRANSFER_ENCODING',
    );
  });

  it('reads a head it has read before as it read it, each answer with headers of its own, and a refused one again', async () => {
    const same = 'HTTP/1.1 200 OK\r\nX-Run: 1\r\nSet-Cookie: a=1\r\nContent-Length: 2\r\n\r\n{}';
    const bad = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}';
    const raw = await rawServer((n) =>
      n <= 2 ? same : n <= 4 ? bad : 'HTTP/1.1 200 OK\r\nX-Run: 1\r\nContent-Length: 4\r\n\r\n{"a"',
    );
    const first = await post(raw.url);
    first.headers['x-run'] = 'changed by its caller';
    first.headers['set-cookie']?.push('leaked=1');
    const second = await post(raw.url);
    expect(second.headers).toEqual({ 'x-run': '1', 'set-cookie': ['a=1'], 'content-length': '2' });
    expect(second.body.toString()).toBe('{}');
    // A head refused is refused every time it comes.
    for (let i = 0; i < 2; i++)
      expect(((await post(raw.url).catch((e: unknown) => e)) as PostError).code).toBe(
        'HPE_UNEXPECTED_CONTENT_LENGTH',
      );
    // Another length is another head: its body is read to its own length.
    expect((await post(raw.url)).body.toString()).toBe('{"a"');
  });

  it('bounds a head that never ends', async () => {
    const raw = await rawServer(() => `HTTP/1.1 200 OK\r\nX-Long: ${'a'.repeat(20_000)}`);
    const error = await post(raw.url).catch((e: unknown) => e);
    expect((error as PostError).code).toBe('HPE_HEADER_OVERFLOW');
  });
});
