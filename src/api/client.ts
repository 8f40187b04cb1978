import type { z } from 'zod';
import type { BackoffOptions } from '../http/index.ts';
import { type Limiter, unlimited, withRetries } from '../http/index.ts';
import { type AskInput, askStream } from './ask-stream.ts';
import { parseJson, unwrapEnvelope } from './envelope.ts';
import {
  AmbiguousCreateError,
  type ApiFailure,
  isApiError,
  NetworkError,
  SchemaError,
  TimeoutError,
} from './errors.ts';
import {
  type AskAnswer,
  askDataSchema,
  askRequestSchema,
  type CreateRequest,
  createDataSchema,
  createRequestSchema,
  type DeleteRequest,
  deleteDataSchema,
  deleteRequestSchema,
  editDataSchema,
  editRequestSchema,
  type ListPage,
  type ListRequest,
  listDataSchema,
  listRequestSchema,
  type Operation,
  PATHS,
  sessionDataSchema,
  sessionRequestSchema,
  type UpdateRequest,
  updateDataSchema,
  updateRequestSchema,
} from './schemas.ts';
import type { AnswerEvent } from './stream-parser.ts';
import { httpError, JsonText, postJson, type TransportOptions } from './transport.ts';

/** One attempt of one call, for reports and metrics. */
export interface CallEvent {
  operation: Operation;
  durationMs: number;
  /** `ok`, or the error's stable code (E_HTTP, E_PLATFORM, E_TIMEOUT…). */
  outcome: string;
  status?: number;
  platformCode?: number;
}

export interface ClientOptions extends TransportOptions {
  /** Retries after the first attempt for 429, 5xx, timeouts, network errors. Default 4. */
  retries?: number;
  backoff?: BackoffOptions;
  /** Bounds every attempt of every call (in flight and per second). Default: none. */
  limiter?: Limiter;
  /** Called after every attempt. */
  onCall?: (event: CallEvent) => void;
  /** Called before every retry wait. */
  onRetry?: (error: ApiFailure, attempt: number, delayMs: number) => void;
  random?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Called once, when the call's first attempt has its limiter slot and is sent: a call called off
   * while it waited for one (a page read ahead and not wanted) never is. What a run's report counts.
   */
  onSent?: () => void;
  /**
   * The request's listing was checked against the listing schema when its feed was read (a run's
   * own record, read back from its store, tags added), so only the request's own fields
   * (`SerialNumber`, and an update's `Key` and `KeyType`) are checked again and the body is sent as
   * it is: every field of a listing checked again cost a create a tenth of its CPU. For `create` and
   * `update` only; a listing made anywhere else (a marked-Sold record from the platform, a caller's
   * own) is checked whole.
   */
  listingChecked?: boolean;
}

export type { AskInput };
export interface AskResult extends AskAnswer {
  sessionID: number;
}

/** The platform: one typed function per operation of the spec, and the only code that talks to it. */
export interface PlatformClient {
  editSettings(
    serialNumber: string,
    settings: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<number>;
  getSession(serialNumber: string, options?: CallOptions): Promise<number>;
  ask(input: AskInput, options?: CallOptions): Promise<AskResult>;
  askStream(input: AskInput, options?: CallOptions): AsyncGenerator<AnswerEvent>;
  createListing(request: CreateRequest, options?: CallOptions): Promise<string>;
  /**
   * `createListing` of a listing given as the JSON text of an object (a run's record as its store
   * kept it, checked against the listing schema when the feed was read): the text is sent as it is
   * behind `SerialNumber`, neither parsed nor serialized again (~8% of a create's CPU).
   */
  createListingJson(serialNumber: string, listingJson: string, options?: CallOptions): Promise<string>;
  updateListing(request: UpdateRequest, options?: CallOptions): Promise<number>;
  /**
   * `updateListing` of the listing `key` (its platform ID: KeyType NewOaks) to a listing given as
   * the JSON text of an object, as `createListingJson` sends one: the text as it is, `SerialNumber`,
   * `Key` and `KeyType` after it (where `updateListing`'s spread put them).
   */
  updateListingJson(
    serialNumber: string,
    key: string,
    listingJson: string,
    options?: CallOptions,
  ): Promise<number>;
  listListings(request: ListRequest, options?: CallOptions): Promise<ListPage>;
  /**
   * A page of RealEstateList decoded by `decode` from the response's bytes (UTF-8 JSON, in the
   * pieces they arrived in: `PageBytes`) instead of here (a run decodes its pages in a thread of
   * their own: `reconcile/decode-pool.ts`). The same limiter and retry policy: a failure `decode`
   * throws (InvalidJsonError, SchemaError, PlatformError) is retried as it would be here.
   */
  listListingsDecoded<T>(
    request: ListRequest,
    decode: (body: PageBytes) => Promise<T>,
    options?: CallOptions,
  ): Promise<T>;
  deleteListings(request: DeleteRequest, options?: CallOptions): Promise<number>;
}

/** Validate a request before it leaves: a bad request is our bug or bad data, never worth a round trip. */
function checkRequest<S extends z.ZodType>(operation: Operation, schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new SchemaError(operation, `request.${issue?.path.join('.') ?? ''}`, issue?.message ?? 'invalid');
}

/** A listing's JSON text that is not the text of an object with fields. */
function notAnObject(operation: 'create' | 'update'): SchemaError {
  return new SchemaError(operation, 'request', 'the listing is not the JSON text of an object with fields');
}

/**
 * A listing checked at ingest, as its JSON text: the text of an object with a field at least, and no
 * SerialNumber of its own (a second key, which most parsers read last: a key is the only JSON text
 * a `"…":` can be). Scanned, not parsed.
 */
function keptListing(operation: 'create' | 'update', listingJson: string): string {
  if (!/^\{\s*"/.test(listingJson) || !listingJson.endsWith('}')) throw notAnObject(operation);
  if (listingJson.includes('"SerialNumber":'))
    throw new SchemaError(operation, 'request.SerialNumber', 'the listing has a SerialNumber of its own');
  return listingJson;
}

/** A listing's JSON text not checked at ingest, parsed to be checked whole with its request. */
function parsedListing(operation: 'create' | 'update', listingJson: string): object {
  let listing: unknown;
  try {
    listing = JSON.parse(listingJson);
  } catch {
    throw notAnObject(operation);
  }
  if (typeof listing !== 'object' || listing === null || Array.isArray(listing)) throw notAnObject(operation);
  return listing;
}

/** What a write adds to a listing checked at ingest (`CallOptions.listingChecked`). */
const OWN_FIELDS: Partial<Record<Operation, z.ZodType>> = {
  create: createRequestSchema.pick({ SerialNumber: true }),
  update: updateRequestSchema.pick({ SerialNumber: true, Key: true, KeyType: true }),
};

/** The request to send: checked whole, or only its own fields around a listing checked at ingest. */
function checkedBody(
  operation: Operation,
  request: { schema: z.ZodType; body: unknown },
  listingChecked: boolean | undefined,
): unknown {
  // JSON text is made by a function of this client that checked its own fields (`createListingJson`).
  if (request.body instanceof JsonText) return request.body;
  const own = listingChecked ? OWN_FIELDS[operation] : undefined;
  if (own === undefined) return checkRequest(operation, request.schema, request.body);
  checkRequest(operation, own, request.body);
  return request.body;
}

/**
 * An answer's bytes as they arrived, in order. A piece that fills a socket read's buffer is taken
 * over by the decode thread (transferred, not copied) and joined on its own core; a piece that does
 * not (the body's first bytes after the head, a chunked answer's pieces, a small decompressed
 * answer) is copied first (`decode-pool.ts`).
 */
export type PageBytes = readonly Uint8Array[];

export function byteLengthOf(bytes: PageBytes): number {
  let length = 0;
  for (const piece of bytes) length += piece.byteLength;
  return length;
}

/** The pieces as one run of bytes (the one piece itself when there is one). */
export function joinedBytes(bytes: PageBytes): Uint8Array {
  return bytes.length === 1 ? (bytes[0] as Uint8Array) : Buffer.concat(bytes);
}

/**
 * Answers up to this size are decoded while their request holds its limiter slot: every error
 * envelope, whose Code the limiter must see. A page of listings is far larger (~1 KB a listing).
 */
const DECODED_IN_SLOT_BYTES = 16 * 1024;

export function createClient(options: ClientOptions): PlatformClient {
  const limiter = options.limiter ?? unlimited;
  const retries = options.retries ?? 4;

  /**
   * One attempt: limiter slot, POST, envelope, Data schema (or the caller's `decode`). The slot is
   * held while the answer is checked, so an envelope's Code 429 teaches the limiter (AIMD) as an
   * HTTP 429 does. A large answer given to `decode` (a page of listings, never an error envelope)
   * is decoded once its slot is free: a page decoded in the decode thread (tens of ms, behind the
   * pages before it) would otherwise keep a request the platform allows from going out. (Its
   * decoding failing, a malformed page, is no overload: the limiter need not see it.) The call's
   * event (`onCall`) covers the request and its decoding, from the slot on.
   */
  async function attempt<S extends z.ZodType, T = z.output<S>>(
    operation: Operation,
    body: unknown,
    schema: S,
    signal?: AbortSignal,
    decode?: (body: PageBytes) => Promise<T>,
    onSent?: () => void,
  ): Promise<T> {
    // A call is one that got its slot: an attempt called off while it waited is none.
    let started = 0;
    let event: CallEvent | undefined;
    try {
      const answer = await limiter.run(async (): Promise<{ value: T } | { page: PageBytes }> => {
        started = performance.now();
        onSent?.();
        const current: CallEvent = { operation, durationMs: 0, outcome: 'ok' };
        event = current;
        if (!decode) {
          const response = await postJson(operation, PATHS[operation], body, options, signal);
          current.status = response.statusCode;
          if (response.statusCode < 200 || response.statusCode >= 300) throw httpError(operation, response);
          return { value: unwrapEnvelope(operation, parseJson(operation, response.body), schema) as T };
        }
        const response = await postJson(operation, PATHS[operation], body, options, signal, 'chunks');
        current.status = response.statusCode;
        if (response.statusCode < 200 || response.statusCode >= 300) throw httpError(operation, response);
        if (byteLengthOf(response.body) <= DECODED_IN_SLOT_BYTES)
          return { value: await decode(response.body) };
        return { page: response.body };
      }, signal);
      return 'page' in answer ? await (decode as (body: PageBytes) => Promise<T>)(answer.page) : answer.value;
    } catch (error) {
      if (event && isApiError(error)) event.outcome = error.code;
      const platformCode = (error as { platformCode?: number }).platformCode;
      if (event && platformCode !== undefined) event.platformCode = platformCode;
      throw error;
    } finally {
      if (event) {
        event.durationMs = performance.now() - started;
        options.onCall?.(event);
      }
    }
  }

  /**
   * Every operation goes through here: the request is validated before it leaves, then sent with
   * the retry policy. A create is retried only when the server provably did not act on it
   * (rate-limited, or never reached); any other failure after sending is ambiguous and surfaces as
   * AmbiguousCreateError for the sync to resolve by looking the listing up.
   */
  async function call<S extends z.ZodType, T = z.output<S>>(
    operation: Operation,
    request: { schema: z.ZodType; body: unknown },
    schema: S,
    callOptions: CallOptions = {},
    decode?: (body: PageBytes) => Promise<T>,
  ): Promise<T> {
    const body = checkedBody(operation, request, callOptions.listingChecked);
    const { signal } = callOptions;
    let once = callOptions.onSent;
    const sent = () => {
      once?.();
      once = undefined;
    };
    const safeToRepeat = (error: ApiFailure) =>
      operation !== 'create' || error.rateLimited || !error.requestSent;
    let attempts = 0;
    try {
      return await withRetries(
        (n) => {
          attempts = n;
          return attempt(operation, body, schema, signal, decode, sent);
        },
        {
          retries,
          isRetryable: (error) => isApiError(error) && error.retryable && safeToRepeat(error),
          retryAfterMs: (error) => (isApiError(error) ? error.retryAfterMs : undefined),
          isRateLimited: (error) => isApiError(error) && error.rateLimited,
          limiter,
          ...(signal ? { signal } : {}),
          ...(options.backoff ? { backoff: options.backoff } : {}),
          ...(options.random ? { random: options.random } : {}),
          onRetry: (error, n, delayMs) => {
            if (isApiError(error)) options.onRetry?.(error, n, delayMs);
          },
        },
      );
    } catch (caught) {
      // A transport failure says after how many attempts it gave up, as a feed's fetch does.
      const error =
        caught instanceof NetworkError || caught instanceof TimeoutError
          ? caught.afterAttempts(attempts)
          : caught;
      if (operation === 'create' && isApiError(error) && error.retryable && !safeToRepeat(error)) {
        throw new AmbiguousCreateError(error);
      }
      throw error;
    }
  }

  const client: PlatformClient = {
    async editSettings(serialNumber, settings, callOptions) {
      const request = { schema: editRequestSchema, body: { ...settings, serialNumber } };
      return call('edit', request, editDataSchema, callOptions);
    },
    async getSession(serialNumber, callOptions) {
      const request = { schema: sessionRequestSchema, body: { serialNumber } };
      return (await call('session', request, sessionDataSchema, callOptions)).SessionID;
    },
    async ask(input, callOptions) {
      const sessionID = input.sessionID ?? (await client.getSession(input.serialNumber ?? '', callOptions));
      const request = { schema: askRequestSchema, body: { ...toAskBody(input), sessionID, stream: false } };
      return { ...(await call('ask', request, askDataSchema, callOptions)), sessionID };
    },
    async *askStream(input, callOptions = {}) {
      const sessionID = input.sessionID ?? (await client.getSession(input.serialNumber ?? '', callOptions));
      const body = checkRequest('ask', askRequestSchema, { ...toAskBody(input), sessionID, stream: true });
      yield* askStream(body, options, callOptions.signal);
    },
    async createListing(body, callOptions) {
      return call('create', { schema: createRequestSchema, body }, createDataSchema, callOptions);
    },
    async createListingJson(serialNumber, listingJson, callOptions) {
      // A listing not checked at ingest is checked whole, as `createListing` checks it.
      if (!callOptions?.listingChecked)
        return client.createListing(
          { ...parsedListing('create', listingJson), SerialNumber: serialNumber } as CreateRequest,
          callOptions,
        );
      checkRequest('create', OWN_FIELDS.create as z.ZodType, { SerialNumber: serialNumber });
      // `{"SerialNumber":…,` and the rest of it.
      const text = keptListing('create', listingJson);
      const body = new JsonText(
        `{"SerialNumber":${JSON.stringify(serialNumber)},${text.slice(text.indexOf('"'))}`,
      );
      return call('create', { schema: createRequestSchema, body }, createDataSchema, callOptions);
    },
    async updateListing(body, callOptions) {
      return call('update', { schema: updateRequestSchema, body }, updateDataSchema, callOptions);
    },
    async updateListingJson(serialNumber, key, listingJson, callOptions) {
      const own = { SerialNumber: serialNumber, Key: key, KeyType: 'NewOaks' as const };
      if (!callOptions?.listingChecked)
        return client.updateListing(
          { ...parsedListing('update', listingJson), ...own } as UpdateRequest,
          callOptions,
        );
      checkRequest('update', OWN_FIELDS.update as z.ZodType, own);
      // The rest of it, then `,"SerialNumber":…,"Key":…,"KeyType":"NewOaks"}`: a Key of the listing's
      // own (none checked at ingest has one) would be read before ours, as the spread overrode it.
      const text = keptListing('update', listingJson);
      const body = new JsonText(
        `${text.slice(0, text.lastIndexOf('}'))},"SerialNumber":${JSON.stringify(serialNumber)},"Key":${JSON.stringify(key)},"KeyType":"NewOaks"}`,
      );
      return call('update', { schema: updateRequestSchema, body }, updateDataSchema, callOptions);
    },
    async listListings(body, callOptions) {
      return call('list', { schema: listRequestSchema, body }, listDataSchema, callOptions);
    },
    async listListingsDecoded(body, decode, callOptions) {
      return call('list', { schema: listRequestSchema, body }, listDataSchema, callOptions, decode);
    },
    async deleteListings(body, callOptions) {
      return (await call('delete', { schema: deleteRequestSchema, body }, deleteDataSchema, callOptions))
        .SuccessCount;
    },
  };
  return client;
}

function toAskBody(input: AskInput) {
  return {
    content: input.content,
    ...(input.chatAskType ? { chatAskType: input.chatAskType } : {}),
    ...(input.fileIds ? { fileIds: input.fileIds } : {}),
  };
}
