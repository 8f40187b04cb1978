import type { IncomingHttpHeaders } from 'node:http';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/**
 * HTTP/1.1 POSTs read whole, on sockets kept alive per origin: the platform's calls that are made
 * once per listing (`postForChunks`, `postForBytes`). A million creates are a million requests, and
 * `node:http` spends ~90–140 µs of CPU on each (its `ClientRequest`, agent, parser and the streams
 * around every answer) where the request is one write and its answer a status line, a few headers
 * and a body of known length: ~40 µs here (docs/performance.md, "The platform's calls on a wire of
 * their own"). What it speaks: a request head and its body written at once; an answer framed by
 * `Content-Length`, `Transfer-Encoding: chunked` or the connection's end; 1xx answers skipped;
 * `Connection: close` and HTTP/1.0 honoured; TLS sessions resumed; idle sockets closed before the server's `Keep-Alive`
 * timeout (4 s when it names none) and never keeping the process alive. No redirects (an answer like
 * any other), no proxy (a call to a host the environment's proxy serves goes on `node:http` through
 * it instead: post.ts, proxy.ts), no upgrade. TLS verifies the
 * server's certificate as `node:https` does (`NODE_EXTRA_CA_CERTS` included).
 *
 * Failures carry the codes `node:http` gives (`ECONNREFUSED`, `ECONNRESET` for a connection closed
 * before the answer ended, `HPE_*` for an answer that is not HTTP), which `classifyRequestError` reads.
 */

/** Where a POST goes, parsed once per URL. */
export interface WireTarget {
  readonly tls: boolean;
  readonly host: string;
  readonly port: number;
  /** The `Host` header: the host as the URL gave it, with its port when not the scheme's default. */
  readonly authority: string;
  /** Path and query. */
  readonly path: string;
  /** The pool's key: scheme, host and port. */
  readonly origin: string;
}

export interface WireAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /**
   * The body as it arrived: each piece a read's own buffer, or a part of one (the body after the
   * head in the same read). A thread takes over a piece that fills its buffer; a part is copied
   * first (`decode-pool.ts`).
   */
  body: Buffer[];
  size: number;
}

/**
 * A request that got no answer (or an answer too large, or not HTTP): `code` is a system code,
 * `ETIMEDOUT`, `ERR_ABORTED`, `ERR_RESPONSE_TOO_LARGE` or an `HPE_*` code, as `node:http` gives them.
 * The one error of the platform's POSTs (`post.ts` re-exports it).
 */
export class PostError extends Error {
  override name = 'PostError';
  readonly code: string;
  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Largest answer head (status line and headers), as `node:http`'s default. */
const MAX_HEAD_BYTES = 16 * 1024;
/** An idle socket is closed this long before the server's keep-alive timeout. */
const IDLE_MARGIN_MS = 1000;
/** How long an idle socket is kept at most (less when the server's keep-alive timeout is shorter). */
const IDLE_DEFAULT_MS = 4000;

/** Headers that `node:http` keeps the first of when an answer repeats them (`IncomingMessage.headers`). */
const FIRST_WINS = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

const targets = new Map<string, WireTarget | undefined>();

/** The URL as a target, or undefined when it is not http(s). Parsed once per URL. */
export function wireTarget(url: string): WireTarget | undefined {
  if (targets.has(url)) return targets.get(url);
  const parsed = URL.parse(url);
  let target: WireTarget | undefined;
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) {
    const tls = parsed.protocol === 'https:';
    // An IPv6 literal comes bracketed; the socket wants it bare.
    const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
    const port = parsed.port === '' ? (tls ? 443 : 80) : Number(parsed.port);
    target = {
      tls,
      host,
      port,
      authority: parsed.host,
      path: `${parsed.pathname}${parsed.search}`,
      origin: `${parsed.protocol}//${parsed.host}`,
    };
  }
  if (targets.size >= 100) targets.clear();
  targets.set(url, target);
  return target;
}

/** A header value or name `node:http` would refuse to send (a line break, a NUL, a bad token). */
const BAD_NAME = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The head of a frozen headers object, by target: made and checked once (a run's million creates
 * send the same headers to the same URL). A headers object that may change is read every time.
 */
const heads = new WeakMap<object, Map<WireTarget, string>>();

/** The request head, or a `PostError` naming the header that cannot be sent (nothing is sent). */
export function requestHead(
  target: WireTarget,
  headers: Readonly<Record<string, string>>,
  bodyBytes: number,
): string {
  let made = heads.get(headers);
  let head = made?.get(target);
  if (head === undefined) {
    head = headOf(target, headers);
    if (Object.isFrozen(headers)) {
      if (made === undefined) {
        made = new Map();
        heads.set(headers, made);
      }
      // Targets are parsed once per URL, a hundred at most at a time (`wireTarget`): so are these.
      if (made.size >= 100) made.clear();
      made.set(target, head);
    }
  }
  return `${head}Content-Length: ${bodyBytes}\r\n\r\n`;
}

/** The head up to its Content-Length. */
function headOf(target: WireTarget, headers: Readonly<Record<string, string>>): string {
  let head = `POST ${target.path} HTTP/1.1\r\nHost: ${target.authority}\r\n`;
  for (const name in headers) {
    const value = headers[name] as string;
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'content-length' || lower === 'connection') continue;
    if (name === '' || BAD_NAME.test(name))
      throw new PostError(`Header name must be a valid HTTP token ["${name}"]`, 'ERR_INVALID_HTTP_TOKEN');
    if (BAD_VALUE.test(value))
      throw new PostError(`Invalid character in header content ["${name}"]`, 'ERR_INVALID_CHAR');
    head += `${name}: ${value}\r\n`;
  }
  return `${head}Connection: keep-alive\r\n`;
}

/** Idle sockets by origin, the most recently used last. */
const idle = new Map<string, Socket[]>();

interface Pooled {
  /** Reading an answer: its handlers. Undefined while idle. */
  active?: WireReader | undefined;
  idleTimer?: NodeJS.Timeout | undefined;
}
const pooled = new WeakMap<Socket, Pooled>();

function takeIdle(origin: string): Socket | undefined {
  const sockets = idle.get(origin);
  while (sockets && sockets.length > 0) {
    const socket = sockets.pop() as Socket;
    const state = pooled.get(socket);
    if (state?.idleTimer) clearTimeout(state.idleTimer);
    if (state) state.idleTimer = undefined;
    if (!socket.destroyed && socket.writable && socket.readable) return socket;
    socket.destroy();
  }
  return undefined;
}

function giveBack(origin: string, socket: Socket, keepMs: number): void {
  const state = pooled.get(socket);
  if (!state || socket.destroyed) return;
  state.active = undefined;
  socket.unref();
  let sockets = idle.get(origin);
  if (!sockets) {
    sockets = [];
    idle.set(origin, sockets);
  }
  sockets.push(socket);
  state.idleTimer = setTimeout(() => {
    forget(origin, socket);
    socket.destroy();
  }, keepMs);
  state.idleTimer.unref();
}

/** Take `socket` out of its origin's idle list (it closed, or its idle time ran out). */
function forget(origin: string, socket: Socket): void {
  const sockets = idle.get(origin);
  const at = sockets?.indexOf(socket) ?? -1;
  if (at >= 0) sockets?.splice(at, 1);
}

/**
 * The last TLS session of each origin, as `node:https`'s agent keeps them (100 at most): a new
 * connection resumes it, a round trip and the key exchange saved where the server allows it.
 */
const sessions = new Map<string, Buffer>();
/**
 * Where every plain socket reads (`onread`), each read copied out at once into a buffer of its own
 * size: Node's own reads make a 64 KB buffer a read and shrink it, which cost a create's answer more
 * than the copy (a POST's client CPU 32–36 µs before, 30 after, 8 at a time against a platform that
 * answers at once). Shared: a read's callback runs before the next read is made. TLS sockets read
 * their own way (`node:tls` takes no `onread`).
 */
const READ_BUFFER = Buffer.allocUnsafeSlow(64 * 1024);

function open(target: WireTarget): Socket {
  const session = target.tls ? sessions.get(target.origin) : undefined;
  const socket = target.tls
    ? tlsConnect({
        host: target.host,
        port: target.port,
        // SNI takes a host name, never an address.
        ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
        ALPNProtocols: ['http/1.1'],
        ...(session ? { session } : {}),
      })
        .on('session', (next: Buffer) => {
          if (!sessions.has(target.origin) && sessions.size >= 100) sessions.clear();
          sessions.set(target.origin, next);
        })
        // A connection that failed forgets the origin's session, as node:https's agent does: a
        // session the server no longer takes is not offered again and again.
        .once('close', (failed: boolean) => {
          if (failed) sessions.delete(target.origin);
        })
    : netConnect({
        host: target.host,
        port: target.port,
        onread: {
          buffer: READ_BUFFER,
          callback: (length: number, buffer: Uint8Array) => {
            const chunk = Buffer.allocUnsafeSlow(length);
            chunk.set(buffer.subarray(0, length));
            take(chunk);
            return true;
          },
        },
      });
  socket.setNoDelay(true);
  // TCP keep-alive probes as Node's agent sets them: a connection dropped on the way is found out.
  socket.setKeepAlive(true, 1000);
  const state: Pooled = {};
  pooled.set(socket, state);
  const take = (chunk: Buffer) => {
    if (state.active) state.active.data(chunk);
    // Bytes on an idle socket answer nothing we asked: the socket is not reused.
    else socket.destroy();
  };
  if (target.tls) socket.on('data', take);
  socket.on('end', () => state.active?.ended());
  socket.on('error', (error) => state.active?.failed(error));
  socket.on('close', () => {
    if (state.idleTimer) clearTimeout(state.idleTimer);
    // Closed while idle (the server's keep-alive ran out): no longer kept for reuse.
    forget(target.origin, socket);
    state.active?.ended();
  });
  return socket;
}

/** One POST in flight: `cancel` ends it with an error of the caller's (a timeout, an abort). */
export interface WireCall {
  readonly answer: Promise<WireAnswer>;
  cancel(error: Error): void;
}

/**
 * POST `body` (with its `head`, from `requestHead`) to `target` and read the whole answer, at most
 * `maxBytes` of body (beyond it, `tooLarge()` is the failure).
 */
export function wirePost(
  target: WireTarget,
  head: string,
  body: string,
  maxBytes: number,
  tooLarge: () => Error,
): WireCall {
  const socket = takeIdle(target.origin) ?? open(target);
  socket.ref();
  let cancel: (error: Error) => void = () => {};
  let written = false;
  const answer = new Promise<WireAnswer>((resolve, reject) => {
    const reader = new WireReader(maxBytes, tooLarge, (outcome) => {
      if (outcome instanceof Error) {
        socket.destroy();
        reject(outcome);
        return;
      }
      const { answer, keepAlive, keepMs } = outcome;
      // An answer before the request was all written (an early 413): the rest of it is the server's
      // to read, so the socket is not reused.
      if (keepAlive && written) giveBack(target.origin, socket, keepMs);
      else socket.destroy();
      resolve(answer);
    });
    (pooled.get(socket) as Pooled).active = reader;
    cancel = (error) => reader.finish(error);
    socket.write(head + body, () => {
      written = true;
    });
  });
  return { answer, cancel: (error) => cancel(error) };
}

type Outcome = Error | { answer: WireAnswer; keepAlive: boolean; keepMs: number };

/** Where the reader is in the answer. */
const Stage = {
  Head: 0,
  Length: 1,
  ChunkSize: 2,
  ChunkData: 3,
  ChunkEnd: 4,
  Trailers: 5,
  UntilClose: 6,
  Done: 7,
} as const;
type Stage = (typeof Stage)[keyof typeof Stage];

/** A copy in a buffer of its own (never a slice of Node's shared pool). */
function ownCopy(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

function protocolError(message: string, code: string): PostError {
  return new PostError(`the answer is not HTTP: ${message}`, code);
}

/** An answer's head as read (`answerHeadOf`). */
interface AnswerHead {
  /** 1xx: the real answer follows. */
  interim: boolean;
  statusCode: number;
  headers: IncomingHttpHeaders;
  keepAlive: boolean;
  keepMs: number;
  /** How the body ends: no body, chunks, `length` bytes, the connection's close. */
  framing: 'none' | 'chunked' | 'length' | 'close';
  length: number;
}

/**
 * Heads read before, by their text: a platform answers a run's creates with a few heads (the
 * `Date` changes once a second, the `Content-Length` with the ID's digits), which are read once.
 * Reading one cost ~2.5 µs of a create's ~30 (`String.split`, a regular expression, a header
 * object); a head's text decides everything read from it.
 */
const answerHeads = new Map<string, AnswerHead>();

/** The head whose text (status line and header lines, without the blank line) is `text`. */
function answerHeadOf(text: string): AnswerHead {
  const known = answerHeads.get(text);
  if (known !== undefined) return known;
  const head = readAnswerHead(text);
  if (answerHeads.size >= 256) answerHeads.clear();
  answerHeads.set(text, head);
  return head;
}

function readAnswerHead(text: string): AnswerHead {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!status)
    throw protocolError(
      `status line ${JSON.stringify((lines[0] ?? '').slice(0, 40))}`,
      'HPE_INVALID_CONSTANT',
    );
  const statusCode = Number(status[2]);
  const headers: IncomingHttpHeaders = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    if (colon <= 0) throw protocolError('a header line without a name', 'HPE_INVALID_HEADER_TOKEN');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const seen = headers[name];
    if (name === 'content-length' && seen !== undefined && seen !== value)
      throw protocolError('two different Content-Lengths', 'HPE_UNEXPECTED_CONTENT_LENGTH');
    if (name === 'set-cookie') headers[name] = [...((seen as string[] | undefined) ?? []), value];
    else if (seen === undefined) headers[name] = value;
    // Repeated, a header Node reads once keeps its first value (two `Retry-After`s are not a date).
    else if (!FIRST_WINS.has(name)) headers[name] = `${seen}, ${value}`;
  }
  const head: AnswerHead = {
    interim: false,
    statusCode,
    headers,
    keepAlive: true,
    keepMs: IDLE_DEFAULT_MS,
    framing: 'close',
    length: 0,
  };
  if (statusCode >= 100 && statusCode < 200) {
    if (statusCode === 101) throw protocolError('an upgrade was not asked for', 'HPE_INVALID_CONSTANT');
    head.interim = true;
    return head;
  }
  const connection = String(headers.connection ?? '').toLowerCase();
  head.keepAlive = status[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
  const timeout = /timeout=(\d+)/i.exec(String(headers['keep-alive'] ?? ''));
  // Never longer than 4 s idle, as Node's agent: a load balancer or NAT may drop a connection idle
  // for minutes without a word, whatever the server's own timeout.
  if (timeout)
    head.keepMs = Math.min(IDLE_DEFAULT_MS, Math.max(0, Number(timeout[1]) * 1000 - IDLE_MARGIN_MS));
  if (head.keepMs === 0) head.keepAlive = false;
  const encoding = String(headers['transfer-encoding'] ?? '').toLowerCase();
  if (statusCode === 204 || statusCode === 304) head.framing = 'none';
  else if (encoding.includes('chunked')) {
    // Both framings at once is how a request is smuggled: refused, as `node:http` refuses it.
    if (headers['content-length'] !== undefined)
      throw protocolError('both Content-Length and chunked', 'HPE_INVALID_TRANSFER_ENCODING');
    head.framing = 'chunked';
  } else if (headers['content-length'] !== undefined) {
    const length = String(headers['content-length']).split(',')[0]?.trim() ?? '';
    if (!/^\d+$/.test(length)) throw protocolError('a bad Content-Length', 'HPE_INVALID_CONTENT_LENGTH');
    head.framing = 'length';
    head.length = Number(length);
  } else {
    head.keepAlive = false;
    head.framing = 'close';
  }
  return head;
}

/** Reads one answer off its socket, as it arrives. */
class WireReader {
  #stage: Stage = Stage.Head;
  #head: Buffer | undefined;
  #statusCode = 0;
  #headers: IncomingHttpHeaders = {};
  #keepAlive = true;
  #keepMs = IDLE_DEFAULT_MS;
  #remaining = 0;
  #body: Buffer[] = [];
  #size = 0;
  /** A chunk-size or trailer line cut between two reads. */
  #line = '';
  #settled = false;
  #whole: Exclude<Outcome, Error> | undefined;
  readonly #maxBytes: number;
  readonly #tooLarge: () => Error;
  readonly #done: (outcome: Outcome) => void;

  constructor(maxBytes: number, tooLarge: () => Error, done: (outcome: Outcome) => void) {
    this.#maxBytes = maxBytes;
    this.#tooLarge = tooLarge;
    this.#done = done;
  }

  finish(outcome: Outcome): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#stage = Stage.Done;
    this.#done(outcome);
  }

  failed(error: Error): void {
    const code = (error as { code?: unknown }).code;
    this.finish(
      error instanceof PostError
        ? error
        : new PostError(error.message, typeof code === 'string' && code ? code : 'ECONNRESET', {
            cause: error,
          }),
    );
  }

  /** The connection ended: the answer is whole only when it was read until the close. */
  ended(): void {
    if (this.#stage === Stage.UntilClose) {
      this.#complete(false);
      this.finish(this.#whole as Outcome);
    } else this.finish(new PostError('socket hang up', 'ECONNRESET'));
  }

  data(chunk: Buffer): void {
    if (this.#settled) return;
    try {
      const leftover = this.#read(chunk);
      const whole = this.#whole;
      if (whole === undefined) return;
      // Bytes after a whole answer answer nothing we asked: the socket is not reused.
      this.finish(leftover ? { ...whole, keepAlive: false } : whole);
    } catch (error) {
      this.finish(error as Error);
    }
  }

  /** Reads what `chunk` holds of the answer; true when bytes are left over after it. */
  #read(chunk: Buffer): boolean {
    let at = 0;
    while (at < chunk.length) {
      switch (this.#stage) {
        case Stage.Head:
          at = this.#readHead(chunk, at);
          break;
        case Stage.Length:
        case Stage.ChunkData: {
          const take = Math.min(this.#remaining, chunk.length - at);
          this.#keep(chunk, at, take);
          at += take;
          this.#remaining -= take;
          if (this.#remaining > 0) break;
          if (this.#stage === Stage.Length) this.#complete(this.#keepAlive);
          else this.#stage = Stage.ChunkEnd;
          break;
        }
        case Stage.UntilClose:
          this.#keep(chunk, at, chunk.length - at);
          at = chunk.length;
          break;
        case Stage.ChunkSize:
        case Stage.ChunkEnd:
        case Stage.Trailers:
          at = this.#readLine(chunk, at);
          break;
        case Stage.Done:
          return true;
      }
    }
    return false;
  }

  #keep(chunk: Buffer, at: number, length: number): void {
    if (length === 0) return;
    this.#size += length;
    if (this.#size > this.#maxBytes) throw this.#tooLarge();
    // A read that fills a buffer of its own (every socket read) is the caller's, whole or in part:
    // a part of it is a view, not a copy (an answer's body after its head, in the same read). A
    // part of a shared buffer is copied into one of its own.
    const own = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    if (own) this.#body.push(at === 0 && length === chunk.length ? chunk : chunk.subarray(at, at + length));
    else this.#body.push(ownCopy(chunk.subarray(at, at + length)));
  }

  #readHead(chunk: Buffer, at: number): number {
    const head = this.#head ? Buffer.concat([this.#head, chunk.subarray(at)]) : chunk.subarray(at);
    // Where the head ends, looking again at the last 3 bytes of what came before.
    const from = this.#head ? Math.max(0, this.#head.length - 3) : 0;
    const end = head.indexOf('\r\n\r\n', from, 'latin1');
    if (end < 0) {
      if (head.length > MAX_HEAD_BYTES) throw protocolError('its head is too large', 'HPE_HEADER_OVERFLOW');
      this.#head = ownCopy(head);
      return chunk.length;
    }
    const consumed = end + 4 - (this.#head?.length ?? 0);
    this.#head = undefined;
    if (end > MAX_HEAD_BYTES) throw protocolError('its head is too large', 'HPE_HEADER_OVERFLOW');
    this.#parseHead(head.toString('latin1', 0, end));
    return at + consumed;
  }

  #parseHead(text: string): void {
    const head = answerHeadOf(text);
    // An interim answer (100 Continue, 103 Early Hints): the real one follows.
    if (head.interim) return;
    this.#statusCode = head.statusCode;
    // Each answer its own headers object: the caller's to keep.
    this.#headers = { ...head.headers };
    const cookies = head.headers['set-cookie'];
    if (cookies !== undefined) this.#headers['set-cookie'] = [...cookies];
    this.#keepAlive = head.keepAlive;
    this.#keepMs = head.keepMs;
    switch (head.framing) {
      case 'none':
        this.#complete(this.#keepAlive);
        break;
      case 'chunked':
        this.#stage = Stage.ChunkSize;
        break;
      case 'length':
        this.#remaining = head.length;
        if (this.#remaining === 0) this.#complete(this.#keepAlive);
        else this.#stage = Stage.Length;
        break;
      case 'close':
        this.#stage = Stage.UntilClose;
    }
  }

  /** A line of the chunked framing: a chunk's size, the CRLF after its data, or a trailer. */
  #readLine(chunk: Buffer, at: number): number {
    const end = chunk.indexOf(10, at);
    const piece = chunk.toString('latin1', at, end < 0 ? chunk.length : end);
    this.#line += piece;
    if (this.#line.length > MAX_HEAD_BYTES)
      throw protocolError('a chunk line is too long', 'HPE_INVALID_CHUNK_SIZE');
    if (end < 0) return chunk.length;
    const line = this.#line.endsWith('\r') ? this.#line.slice(0, -1) : this.#line;
    this.#line = '';
    if (this.#stage === Stage.ChunkEnd) {
      if (line !== '') throw protocolError('no line end after a chunk', 'HPE_INVALID_CHUNK_SIZE');
      this.#stage = Stage.ChunkSize;
    } else if (this.#stage === Stage.ChunkSize) {
      const size = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(line);
      if (!size) throw protocolError('a bad chunk size', 'HPE_INVALID_CHUNK_SIZE');
      this.#remaining = Number.parseInt(size[1] as string, 16);
      this.#stage = this.#remaining === 0 ? Stage.Trailers : Stage.ChunkData;
    } else if (line === '') this.#complete(this.#keepAlive);
    return end + 1;
  }

  /** The answer is whole: settled once the read that completed it is looked at whole. */
  #complete(keepAlive: boolean): void {
    const answer = {
      statusCode: this.#statusCode,
      headers: this.#headers,
      body: this.#body,
      size: this.#size,
    };
    this.#stage = Stage.Done;
    this.#whole = { answer, keepAlive: keepAlive && this.#keepAlive, keepMs: this.#keepMs };
  }
}
