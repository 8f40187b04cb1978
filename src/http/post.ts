import {
  type ClientRequest,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import {
  brotliDecompress,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createZstdDecompress,
  gunzip,
  inflate,
  type ZlibOptions,
  type ZstdOptions,
  zstdDecompress,
} from 'node:zlib';
import { agentsFor, type ProxyAgents, proxyAgentsFor } from './proxy.ts';
import { PostError, requestHead, type WireAnswer, type WireCall, wirePost, wireTarget } from './wire.ts';

/**
 * One POST for the platform's calls: the one path of a run that is taken once per listing (a million
 * creates for a million-listing feed). Answers read whole (`postForBytes`, `postForChunks`: every
 * create, update, delete and list page) go over the platform's own wire (`wire.ts`: HTTP/1.1 on
 * sockets kept alive per origin, ~40 µs of client CPU a call where `node:http` spends ~90–140 µs and
 * got ~470 µs, measured on a 2-CPU machine against the sandbox in a process of its own, 8 at a time:
 * docs/performance.md, "A create's cost" and "The platform's calls on a wire of their own"). A
 * streamed chat answer (`postForStream`) stays on `node:http`, whose streams it needs. Everything else
 * that speaks HTTP (feed downloads, RESO, tokens, the webhook) keeps got, for its redirects,
 * per-phase timeouts, hooks and streams; this file offers only what the platform needs: a JSON body,
 * kept-alive connections, gzip/deflate/br/zstd answers (decoded on libuv's threads), one timeout, an
 * AbortSignal, a size bound. A call to a host a proxy serves (`proxy.ts`) goes on `node:http` with
 * the proxy's agents, read whole as on the wire.
 * Failures are `PostError`s whose `code` `classifyRequestError` reads as it reads got's.
 */

export { PostError };

export interface PostOptions {
  headers: Readonly<Record<string, string>>;
  /** The body, already encoded (JSON text). */
  body: string;
  /**
   * `postForBytes`: the whole attempt, from the first byte sent to the answer's last. `postForStream`:
   * until the answer's headers, then between two chunks of it (a streamed answer may last minutes).
   */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Largest answer, decoded, in bytes. Default 256 MiB. */
  maxBytes?: number;
}

export interface PostAnswer<T> {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: T;
}

const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** What got offered, in its order (zstd: Node 24 decodes it). */
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** The sent headers of a frozen caller's headers object (`sentHeaders`), made once. */
const sent = new WeakMap<object, Readonly<Record<string, string>>>();

/**
 * The headers every POST sends: ours, then the caller's (its body's length is the sender's to add).
 * Frozen when the caller's are (a client's, shared by its calls): the wire then makes their head once.
 */
function sentHeaders(options: PostOptions): Readonly<Record<string, string>> {
  const known = sent.get(options.headers);
  if (known !== undefined) return known;
  const headers = { 'user-agent': 'feed-sync', 'accept-encoding': ACCEPT_ENCODING, ...options.headers };
  if (!Object.isFrozen(options.headers)) return headers;
  const frozen = Object.freeze(headers);
  sent.set(options.headers, frozen);
  return frozen;
}

/** POST and read the whole answer, decoded, as bytes. Any status is an answer; only no answer rejects. */
export async function postForBytes(url: string, options: PostOptions): Promise<PostAnswer<Buffer>> {
  const answer = await postForChunks(url, options);
  const { body } = answer;
  return { ...answer, body: body.length === 1 ? (body[0] as Buffer) : Buffer.concat(body) };
}

/**
 * `postForBytes`, with the answer in the pieces it arrived in, not joined and not copied: a piece
 * that fills its read's buffer (all but the first of an answer with a length) can be handed to
 * another thread (`postMessage`'s transfer list) as it is; a part of a read is copied first. A run's
 * list pages are read so: joining 1 MB from 16 pieces costs the main thread
 * ~3 ms a page (fresh memory), which the decode thread then pays on its own core instead. An
 * encoded answer is one piece, decoded. Sent on the platform's wire (`wire.ts`).
 */
export function postForChunks(url: string, options: PostOptions): Promise<PostAnswer<Buffer[]>> {
  const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError());
  let call: WireCall;
  // Through a proxy when one serves this URL (its host not in NO_PROXY, not loopback); else the wire.
  const proxied = proxyAgentsFor(url, options.timeoutMs);
  if (proxied !== undefined) call = proxiedPost(url, options, max, proxied);
  else {
    const target = wireTarget(url);
    if (target === undefined) return Promise.reject(invalidUrl(url));
    let head: string;
    try {
      head = requestHead(target, sentHeaders(options), Buffer.byteLength(options.body));
    } catch (error) {
      // A header that cannot be sent (a key with a line break): nothing was sent.
      return Promise.reject(asPostError(error as Error));
    }
    call = wirePost(target, head, options.body, max, () => tooLarge(max));
  }
  /** Ends the attempt with an error: the request on the wire, then its answer's decoding. */
  let cancel = (error: Error) => call.cancel(error);
  const timer = setTimeout(
    () => cancel(new PostError(`no answer within ${options.timeoutMs} ms`, 'ETIMEDOUT')),
    options.timeoutMs,
  );
  const onAbort = () => cancel(abortError());
  signal?.addEventListener('abort', onAbort, { once: true });
  const settled = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  };
  return call.answer.then(
    (answer) => {
      const { statusCode, headers, body, size } = answer;
      const encoding = encodingOf(statusCode, headers);
      // An empty body is empty whatever its header says (a proxy's bare 429), as got reads it.
      if (encoding === undefined || size === 0) {
        settled();
        return { statusCode, headers, body };
      }
      const raw = body.length === 1 ? (body[0] as Buffer) : Buffer.concat(body, size);
      // Decoded on libuv's threads, not the event loop; bounded as the raw answer is. The timer
      // and the signal still bound it.
      return new Promise<PostAnswer<Buffer[]>>((resolve, reject) => {
        let open = true;
        cancel = (error: Error) => {
          if (!open) return;
          open = false;
          settled();
          reject(error);
        };
        DECODERS[encoding](raw, { maxOutputLength: max }, (error, decoded) => {
          if (!open) return;
          open = false;
          settled();
          if (!error) resolve({ statusCode, headers, body: [decoded] });
          else if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') reject(tooLarge(max));
          else reject(decodingError(encoding, error));
        });
      });
    },
    (error: Error) => {
      settled();
      throw asPostError(error);
    },
  );
}

/**
 * `wirePost` through a proxy (`proxy.ts`): the request on `node:http` with the proxy's agents, the
 * answer's body kept as it arrives, bounded by `max` bytes. Timeout and abort are the caller's
 * (`cancel`), as on the wire.
 */
function proxiedPost(url: string, options: PostOptions, max: number, agents: ProxyAgents): WireCall {
  let cancel: (error: Error) => void = () => {};
  const answer = new Promise<WireAnswer>((resolve, reject) => {
    const call = start(url, { ...options, signal: undefined }, reject, agents);
    if (!call) return;
    // Settled with the error, the request closed without one: once its answer has begun, the
    // proxy agent's socket would throw an error it is destroyed with (no listener is left on it).
    cancel = (error) => {
      call.settle(() => reject(error));
      call.request.destroy();
    };
    call.request.on('response', (response) => {
      const body: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) cancel(tooLarge(max));
        else body.push(chunk);
      });
      response.on('error', (error) => call.fail(asPostError(error)));
      response.on('end', () =>
        call.settle(() =>
          resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body, size }),
        ),
      );
    });
    call.request.end(options.body);
  });
  return { answer, cancel: (error) => cancel(error) };
}

/** POST and hand over the answer as a stream once its headers are in (a streamed chat answer). */
export function postForStream(url: string, options: PostOptions): Promise<PostAnswer<Readable>> {
  return new Promise((resolve, reject) => {
    // Direct on agents that never proxy when a proxy is set and NO_PROXY names the host.
    const call = start(url, options, reject, agentsFor(url, options.timeoutMs));
    if (!call) return;
    const { request } = call;
    // Idle time on the socket: until the headers, and between two chunks after them.
    request.setTimeout(options.timeoutMs, () =>
      call.fail(new PostError(`no data for ${options.timeoutMs} ms`, 'ETIMEDOUT')),
    );
    request.on('response', (response) => {
      const body = streamOf(response, call.fail);
      call.handedOver = body;
      body.once('close', () => {
        call.release();
        // A reader that stopped early (or a decoder that failed) leaves the answer unread: its socket
        // is closed rather than left to the server. A complete answer's socket is the pool's.
        if (!response.complete) request.destroy();
      });
      // From here the stream's reader sees every failure; an abort still ends it.
      call.settle(
        () => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body }),
        true,
      );
    });
    call.request.end(options.body);
  });
}

interface Call {
  request: ClientRequest;
  /** The answer's stream once handed to the caller: a later failure (idle, abort) ends it with its error. */
  handedOver?: Readable;
  /** Reject with `error` (once), or end the handed-over stream with it, and destroy the request. */
  fail(error: Error): void;
  /** Settle with `then` (once), releasing the abort listener unless `keepAbort`. */
  settle(then: () => void, keepAbort?: boolean): void;
  /** Stop listening for the abort (a handed-over stream that has closed). */
  release(): void;
}

/**
 * Open the request: headers set, abort and errors wired, through the proxy's `agents` when one is
 * set. Undefined (and `reject` called) when it cannot start.
 */
function start(
  url: string,
  options: PostOptions,
  reject: (error: Error) => void,
  agents: ProxyAgents | undefined,
): Call | undefined {
  const { signal } = options;
  if (signal?.aborted) {
    reject(abortError());
    return undefined;
  }
  const target = URL.parse(url);
  const send =
    target?.protocol === 'http:' ? httpRequest : target?.protocol === 'https:' ? httpsRequest : undefined;
  if (!target || !send) {
    reject(invalidUrl(url));
    return undefined;
  }
  let request: ClientRequest;
  try {
    const agent = agents === undefined ? undefined : send === httpRequest ? agents.http : agents.https;
    request = send(target, {
      method: 'POST',
      ...(agent === undefined ? {} : { agent }),
      headers: { ...sentHeaders(options), 'content-length': String(Buffer.byteLength(options.body)) },
    });
  } catch (error) {
    // A header Node refuses (a key with a line break: ERR_INVALID_CHAR): nothing was sent.
    reject(asPostError(error as Error));
    return undefined;
  }
  let settled = false;
  const onAbort = () => call.fail(abortError());
  const call: Call = {
    request,
    fail(error) {
      if (settled) {
        // Only a stream handed over is still read after settling; it ends with the failure. (A
        // request whose answer has ended is already destroyed for Node: its socket is the pool's.)
        const stream = call.handedOver;
        if (stream === undefined) return;
        if (!stream.destroyed) stream.destroy(error);
        request.destroy(error);
        return;
      }
      call.settle(() => reject(error));
      request.destroy(error);
    },
    settle(then, keepAbort = false) {
      if (settled) return;
      settled = true;
      if (!keepAbort) call.release();
      then();
    },
    release: () => signal?.removeEventListener('abort', onAbort),
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  // A persistent listener: a destroyed request may emit once more after it has failed.
  request.on('error', (error) => call.fail(asPostError(error)));
  return call;
}

type Encoding = 'gzip' | 'deflate' | 'br' | 'zstd';

/** The answer's compression, when it has a body to decode (got's `decompress`; 204/205/304 have none). */
function encodingOf(status: number, headers: IncomingHttpHeaders): Encoding | undefined {
  if (status === 204 || status === 205 || status === 304 || headers['content-length'] === '0')
    return undefined;
  const header = String(headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  return header === 'gzip' || header === 'x-gzip'
    ? 'gzip'
    : header === 'deflate' || header === 'br' || header === 'zstd'
      ? header
      : undefined;
}

type Decode = (
  bytes: Buffer,
  options: ZlibOptions,
  done: (error: Error | null, body: Buffer) => void,
) => void;
const DECODERS: Record<Encoding, Decode> = {
  gzip: gunzip,
  deflate: inflate,
  br: brotliDecompress,
  // Node bounds zstd's output as it bounds the others' (its types do not say so).
  zstd: (bytes, options, done) => zstdDecompress(bytes, options as ZstdOptions, done),
};

/** A streamed answer, decompressed when the server says it is; every failure goes to `fail`. */
function streamOf(response: IncomingMessage, fail: (error: Error) => void): Readable {
  response.on('error', (error) => fail(asPostError(error)));
  const encoding = encodingOf(response.statusCode ?? 0, response.headers);
  if (encoding === undefined) return response;
  const decoder =
    encoding === 'gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : createZstdDecompress();
  decoder.on('error', (error) => fail(decodingError(encoding, error)));
  return response.pipe(decoder);
}

function invalidUrl(url: string): PostError {
  const target = URL.parse(url);
  return new PostError(`cannot POST to ${target ? target.protocol : 'an invalid URL'}`, 'ERR_INVALID_URL');
}

function tooLarge(max: number): PostError {
  return new PostError(`answer larger than ${max} bytes`, 'ERR_RESPONSE_TOO_LARGE');
}

function decodingError(encoding: Encoding, error: Error): PostError {
  return new PostError(`bad ${encoding} answer: ${error.message}`, 'ERR_CONTENT_DECODING', { cause: error });
}

function abortError(): PostError {
  return new PostError('the request was aborted', 'ERR_ABORTED');
}

function asPostError(error: Error): PostError {
  if (error instanceof PostError) return error;
  const code = (error as { code?: unknown }).code;
  return new PostError(error.message, typeof code === 'string' && code ? code : 'ECONNRESET', {
    cause: error,
  });
}
