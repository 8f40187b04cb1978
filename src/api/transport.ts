import type { Readable } from 'node:stream';
import {
  classifyRequestError,
  type HttpStatusError,
  type PostAnswer,
  postForBytes,
  postForChunks,
  postForStream,
  proxyNoteFor,
  retryAfterOf,
} from '../http/index.ts';
import { AbortedError, type ApiError, NetworkError, platformStatusError, TimeoutError } from './errors.ts';
import type { Operation } from './schemas.ts';

/** Connection settings of the platform. */
export interface TransportOptions {
  baseUrl: string;
  secretKey?: string | undefined;
  sessionKey?: string | undefined;
  /** Per-attempt timeout, ms. */
  timeoutMs: number;
}

/**
 * A request body that is JSON text already (a run's record as it kept it, `createListingJson`):
 * sent as it is, not serialized again.
 */
export class JsonText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** The body's text: JSON text as it is, anything else serialized. */
function bodyText(body: unknown): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}

/**
 * Headers of every call. The spec (section 5) conflicts with itself on which header each operation
 * takes, so both are sent wherever they are configured.
 */
export function platformHeaders(options: TransportOptions): Readonly<Record<string, string>> {
  return madeOf(options).headers;
}

export function urlOf(options: TransportOptions, path: string): string {
  const { urls } = madeOf(options);
  let url = urls.get(path);
  if (url === undefined) {
    url = `${options.baseUrl.replace(/\/+$/, '')}${path}`;
    urls.set(path, url);
  }
  return url;
}

/**
 * A client's headers and URLs, made once for its settings (a million creates send the same ones):
 * the headers frozen, so the wire makes their head once too. Made again when a setting changed.
 */
interface Made {
  baseUrl: string;
  secretKey: string | undefined;
  sessionKey: string | undefined;
  headers: Readonly<Record<string, string>>;
  urls: Map<string, string>;
}
const made = new WeakMap<TransportOptions, Made>();

function madeOf(options: TransportOptions): Made {
  const { baseUrl, secretKey, sessionKey } = options;
  const known = made.get(options);
  if (known?.baseUrl === baseUrl && known.secretKey === secretKey && known.sessionKey === sessionKey)
    return known;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (secretKey) headers.authorization = secretKey;
  if (sessionKey) headers['chatrobot-sessionkey'] = sessionKey;
  const fresh: Made = { baseUrl, secretKey, sessionKey, headers: Object.freeze(headers), urls: new Map() };
  made.set(options, fresh);
  return fresh;
}

/** What went wrong on the wire, as one of our errors (`requestSent` false when the server cannot have acted). */
export function mapRequestError(
  operation: Operation,
  error: unknown,
  options: TransportOptions,
  signal?: AbortSignal,
): ApiError {
  const failure = classifyRequestError(error, signal);
  if (failure.kind === 'aborted') return new AbortedError(operation);
  const via = proxyNoteFor(options.baseUrl);
  const at = { origin: originOf(options.baseUrl), ...(via ? { via } : {}) };
  if (failure.kind === 'timeout') return new TimeoutError(operation, options.timeoutMs, error, at);
  return new NetworkError(operation, failure.code, error, failure, at);
}

/** The base URL's origin (scheme, host, port), for messages: never its path or credentials. */
function originOf(baseUrl: string): string {
  const url = URL.parse(baseUrl);
  return url ? url.origin : 'the platform';
}

export function httpError(
  operation: Operation,
  response: Pick<PostAnswer<unknown>, 'statusCode' | 'headers'>,
): HttpStatusError {
  const retryAfterMs = retryAfterOf(response.headers);
  return platformStatusError(
    operation,
    response.statusCode,
    retryAfterMs === undefined ? {} : { retryAfterMs },
  );
}

/** UTF-8 with a leading byte-order mark dropped, as got read an answer (a .NET server may send one). */
const UTF8 = new TextDecoder('utf-8');

/**
 * One POST with a JSON body, answered as text (or as its bytes, in the pieces they arrived in: a
 * list page handed to the decode thread without being joined here). No retries here: the client
 * owns the policy. Redirects are never followed (an answer like any other status), so the keys
 * never reach another host.
 */
export async function postJson(
  operation: Operation,
  path: string,
  body: unknown,
  options: TransportOptions,
  signal?: AbortSignal,
): Promise<PostAnswer<string>>;
export async function postJson(
  operation: Operation,
  path: string,
  body: unknown,
  options: TransportOptions,
  signal: AbortSignal | undefined,
  as: 'chunks',
): Promise<PostAnswer<Uint8Array[]>>;
export async function postJson(
  operation: Operation,
  path: string,
  body: unknown,
  options: TransportOptions,
  signal?: AbortSignal,
  as: 'text' | 'chunks' = 'text',
): Promise<PostAnswer<string> | PostAnswer<Uint8Array[]>> {
  try {
    const post = {
      headers: platformHeaders(options),
      body: bodyText(body),
      timeoutMs: options.timeoutMs,
      signal,
    };
    if (as === 'chunks') return await postForChunks(urlOf(options, path), post);
    const answer = await postForBytes(urlOf(options, path), post);
    return { ...answer, body: UTF8.decode(answer.body) };
  } catch (error) {
    throw mapRequestError(operation, error, options, signal);
  }
}

/** Open a POST whose answer is read as a stream (ClientAsk with stream: true). */
export async function postStream(
  operation: Operation,
  path: string,
  body: unknown,
  options: TransportOptions,
  signal?: AbortSignal,
): Promise<PostAnswer<Readable>> {
  try {
    return await postForStream(urlOf(options, path), {
      headers: { ...platformHeaders(options), accept: 'text/event-stream, application/json' },
      body: JSON.stringify(body),
      // Between bytes, not for the whole answer: a long answer may stream for minutes.
      timeoutMs: options.timeoutMs,
      signal,
    });
  } catch (error) {
    throw mapRequestError(operation, error, options, signal);
  }
}
