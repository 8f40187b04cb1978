import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { InvalidJsonError, type PageBytes, PlatformError, SchemaError } from '../api/index.ts';
import { newDecodeThread, takeEarlyDecodeThread } from '../decode-thread.ts';
import type { Listing } from '../normalize/index.ts';
import type { DecodeReply, DecodeRequest, FailureOf, MemoEnd } from './decode-protocol.ts';
import type { TagKeys } from './ownership.ts';
import type { JudgedPages } from './remote-book.ts';
import type { RemotePage } from './remote-page.ts';
import { SnapshotError } from './snapshot.ts';

/**
 * One thread per process that decodes the platform's list pages for every run of the process
 * (issue 23 §3): a no-op run reads its feed on the main thread while the pages are parsed,
 * validated, canonicalized, digested and kept in this one, so it costs about the longer of the two
 * instead of their sum. Started on first use and kept (it holds the process open only while a run
 * waits on it). Each run is a session with its own spill file of the pages' records, freed by
 * `close`. If the thread dies, every run waiting on it fails with a SnapshotError (the next run
 * starts a new thread).
 */
export interface DecodeSession {
  /**
   * Decode one page from its UTF-8 bytes, whole or in the pieces they arrived in (the client's
   * `listListingsDecoded`), which it takes over: they are joined in the thread.
   */
  decode(body: Uint8Array | PageBytes): Promise<RemotePage>;
  /** The canonical records kept by `decode`, by their numbers. */
  records(refs: readonly number[]): Promise<Partial<Listing>[]>;
  /**
   * Pages (by the number of their records, `ref / PAGE_SPAN`) joined with the feed: those none of
   * whose records `records` will be asked for, which the thread forgets instead of writing them to
   * its spill file, and the others, which it writes there now rather than hold them. Not queued
   * behind the pages still to decode: it may take effect before requests made earlier (never name a
   * page unwanted whose records were asked for).
   */
  settle(pages: JudgedPages): void;
  /**
   * Every page is read: whether the page memo this run leaves is the last one, else the entries of
   * the pages it knew (`written`: the entries the run was handed for the pages it decoded).
   */
  memoEnd(written: number): Promise<MemoEnd>;
  /** How many pages the thread has written to the session's spill file, the settles before this one counted. */
  spilled(): Promise<number>;
  /** Free the session's records. Idempotent. */
  close(): void;
}

function errorOf(failure: FailureOf): Error {
  switch (failure.code) {
    case 'E_INVALID_JSON':
      return new InvalidJsonError('list', new Error(failure.message));
    case 'E_SCHEMA': {
      const field = failure.field ?? 'Data';
      const prefix = `list: unexpected response: ${field}: `;
      const detail = failure.message.startsWith(prefix)
        ? failure.message.slice(prefix.length)
        : failure.message;
      return new SchemaError('list', field, detail);
    }
    case 'E_PLATFORM':
      return new PlatformError('list', failure.platformCode, failure.platformMessage ?? '');
    default: {
      const error = new SnapshotError(`decoding a list page failed: ${failure.message}`);
      if (failure.stack) error.stack = failure.stack;
      return error;
    }
  }
}

interface Waiting {
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
  /** A page's entry for the memo the run leaves (`SessionMemo.onEntry`). */
  onEntry?: (entry: Uint8Array) => void;
}

/** A session's page memo (`page-memo.ts`). */
export interface SessionMemo {
  salt: string;
  /** The last run's memo, if any: handed to the thread. */
  bytes?: Uint8Array | undefined;
  /** Each page's entry for the memo this run leaves; none kept when unset (a dry run). */
  onEntry?: ((entry: Uint8Array) => void) | undefined;
}

/** Bytes that fill their own buffer move to the thread; a slice of a shared one (Node's pool of small buffers) is copied first. */
function movable(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole ? bytes : new Uint8Array(bytes);
}

class DecodePool {
  #worker: Worker | undefined;
  /** The thread's settle port, this side (`settle-port`: settles are not queued behind pages). */
  #settles: MessagePort | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;
  #nextSession = 1;

  session(keyField: 'MLSNumber' | 'Url', tags: TagKeys, memo?: SessionMemo): DecodeSession {
    const session = this.#nextSession++;
    let open = true;
    const closed = () => Promise.reject(new SnapshotError("the run's snapshot was closed"));
    if (memo) {
      // The store's bytes are the caller's (`MemoStore.read`): they move to the thread, not copied
      // (a 1M-listing chatbot's memo is ~37 MB); bytes that share a buffer are copied.
      const bytes = memo.bytes ? movable(memo.bytes) : undefined;
      const request = { op: 'memo', session, salt: memo.salt, keep: memo.onEntry !== undefined } as const;
      try {
        // Posted before any page of the session: the thread reads its messages in order.
        this.#start().postMessage(
          bytes ? { ...request, bytes } : request,
          bytes ? [bytes.buffer as ArrayBuffer] : [],
        );
      } catch {
        // A memo that cannot be handed over is none: every page is decoded, none is kept.
      }
    }
    return {
      decode: (bytes) => {
        if (!open) return closed();
        const body = (bytes instanceof Uint8Array ? [bytes] : bytes).map(movable);
        return this.#ask<RemotePage>(
          { op: 'decode', id: 0, session, body, keyField, tags },
          body.map((piece) => piece.buffer as ArrayBuffer),
          (entry) => {
            if (open) memo?.onEntry?.(entry);
          },
        );
      },
      records: (refs) =>
        !open
          ? closed()
          : refs.length === 0
            ? Promise.resolve([])
            : this.#ask<Partial<Listing>[]>({ op: 'records', id: 0, session, refs: Float64Array.from(refs) }),
      settle: ({ unwanted, wanted }) => {
        if (open && unwanted.length + wanted.length > 0)
          (this.#settles ?? this.#worker)?.postMessage({
            op: 'settle',
            session,
            unwanted: [...unwanted],
            wanted: [...wanted],
          } satisfies DecodeRequest);
      },
      memoEnd: (written) =>
        !open ? closed() : this.#ask<MemoEnd>({ op: 'memo-end', id: 0, session, written }),
      spilled: () => (!open ? closed() : this.#ask<number>({ op: 'spilled', id: 0, session })),
      close: () => {
        if (!open) return;
        open = false;
        this.#worker?.postMessage({ op: 'close', session } satisfies DecodeRequest);
      },
    };
  }

  /**
   * Start the thread now, if it is not running: its modules load on another core while the run
   * starts reading its feed, so the first page is decoded as soon as it arrives.
   */
  warm(): void {
    this.#start();
  }

  #ask<T>(
    request: Exclude<DecodeRequest, { op: 'close' | 'memo' | 'settle' | 'settle-port' }>,
    transfer: ArrayBuffer[] = [],
    onEntry?: (entry: Uint8Array) => void,
  ): Promise<T> {
    const worker = this.#start();
    const id = this.#nextId++;
    request.id = id;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, {
        resolve: resolve as (value: never) => void,
        reject,
        ...(onEntry ? { onEntry } : {}),
      });
      // Held open while a run waits on the thread, and only then.
      if (this.#waiting.size === 1) worker.ref();
      try {
        try {
          worker.postMessage(request, transfer);
        } catch (error) {
          // A buffer that cannot move (marked so by whoever made it): its bytes are copied instead.
          if (!(request.op === 'decode' && (error as Error).name === 'DataCloneError')) throw error;
          const body = request.body.map((piece) => new Uint8Array(piece));
          worker.postMessage(
            { ...request, body },
            body.map((piece) => piece.buffer),
          );
        }
      } catch (error) {
        this.#settle({ id, failure: { code: 'E_DECODE', message: (error as Error).message } });
      }
    });
  }

  #settle(reply: DecodeReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (waiting === undefined) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#worker?.unref();
    if ('entry' in reply && reply.entry !== undefined) {
      try {
        waiting.onEntry?.(reply.entry);
      } catch {
        // The memo this run leaves is the worse for it, never the page.
      }
    }
    if ('failure' in reply) waiting.reject(errorOf(reply.failure));
    else
      waiting.resolve(
        ('page' in reply
          ? reply.page
          : 'memo' in reply
            ? reply.memo
            : 'spilled' in reply
              ? reply.spilled
              : reply.records) as never,
      );
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    // The one the CLI's entry started, if it did (src/decode-thread.ts), else a new one.
    const worker = takeEarlyDecodeThread() ?? newDecodeThread();
    worker.on('message', (reply: DecodeReply) => this.#settle(reply));
    const fail = (cause: unknown) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#settles?.close();
      this.#settles = undefined;
      const error = new SnapshotError("the thread that decodes the platform's pages stopped", { cause });
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    // After the listeners: a 'message' listener holds the thread's port (and the process) open.
    worker.unref();
    this.#worker = worker;
    // Before any page: the thread takes the settles from this port first (decode-worker.ts).
    const { port1, port2 } = new MessageChannel();
    try {
      worker.postMessage({ op: 'settle-port', port: port2 } satisfies DecodeRequest, [port2]);
      this.#settles = port1;
    } catch {
      // Settles go in line with the pages, as before.
      port1.close();
      this.#settles = undefined;
    }
    return worker;
  }

  /** End the thread as a crash would: every run waiting on it fails (tests). */
  async kill(): Promise<void> {
    await this.#worker?.terminate();
  }

  /** Stop the thread (tests; a process that ends needs not: the thread never holds it open idle). */
  async stop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#settles?.close();
    this.#settles = undefined;
    await worker?.terminate();
  }
}

/** The process's decode thread. */
export const decodePool = new DecodePool();
