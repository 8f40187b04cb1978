import type { Worker } from 'node:worker_threads';
import { InvalidJsonError, isApiError, PlatformError, SchemaError } from '../api/index.ts';
import { newDecodeThread, takeEarlyDecodeThread } from '../decode-thread.ts';
import type { Listing } from '../normalize/index.ts';
import type { DecodeReply, DecodeRequest, FailureOf } from './decode-protocol.ts';
import type { TagKeys } from './ownership.ts';
import { type ByteStore, spillBytes } from './record-store.ts';
import { decodePage, PAGE_SPAN, type RemotePage, recordsIn } from './remote-page.ts';
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
  /** Decode one page from its UTF-8 bytes (the client's `listListingsDecoded`), which it takes over. */
  decode(body: Uint8Array): Promise<RemotePage>;
  /**
   * The run's thread has nothing else to do (its feed is read): pages waiting for the decode thread
   * are decoded here too, one per turn of the event loop, so both cores decode.
   */
  help(): void;
  /** The canonical records kept by `decode`, by their numbers. */
  records(refs: readonly number[]): Promise<Partial<Listing>[]>;
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
}

/** Pages a session has at the decode thread at once: one decoded, one waiting, so it never idles. */
const AT_THREAD = 2;
/** The first page number of the pages a session decodes on the main thread (refs stay below 2^53). */
const HERE = 2 ** 30;

interface Job {
  body: Uint8Array;
  resolve: (page: RemotePage) => void;
  reject: (error: unknown) => void;
}

const utf8 = new TextDecoder();

class DecodePool {
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;
  #nextSession = 1;

  /**
   * A run's pages. Each page waits in the session's queue and goes to the thread when the thread
   * has fewer than `AT_THREAD` of it; once the run calls `help`, the main thread takes pages from
   * the queue too and keeps what it decoded in a spill file of its own (pages from `HERE` on).
   */
  session(keyField: 'MLSNumber' | 'Url', tags: TagKeys): DecodeSession {
    const session = this.#nextSession++;
    let open = true;
    const closed = () => Promise.reject(new SnapshotError("the run's snapshot was closed"));
    const queue: Job[] = [];
    let atThread = 0;
    let helping = false;
    let turn: NodeJS.Immediate | undefined;
    let here: ByteStore | undefined;
    const send = (job: Job) => {
      atThread++;
      // A body that fills its own buffer moves to the thread; a slice of a shared one (Node's
      // pool of small buffers) is copied first.
      const { body: bytes } = job;
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const body = whole ? bytes : new Uint8Array(bytes);
      this.#ask<RemotePage>({ op: 'decode', id: 0, session, body, keyField, tags }, [
        body.buffer as ArrayBuffer,
      ])
        .then(job.resolve, job.reject)
        .finally(() => {
          atThread--;
          pump();
        });
    };
    const decodeHere = () => {
      turn = undefined;
      const job = queue.shift();
      if (job === undefined || !open) return;
      try {
        here ??= spillBytes();
        const page = decodePage(utf8.decode(job.body), keyField, tags, HERE + here.size);
        here.put(job.body);
        job.resolve(page);
      } catch (error) {
        job.reject(
          isApiError(error)
            ? error
            : new SnapshotError(`decoding a list page failed: ${(error as Error).message}`, { cause: error }),
        );
      }
      pump();
    };
    const pump = () => {
      while (open && queue.length > 0 && atThread < AT_THREAD) send(queue.shift() as Job);
      // One page per turn: the event loop goes on between two (the pages still on the wire).
      if (open && helping && queue.length > 0 && turn === undefined) turn = setImmediate(decodeHere);
    };
    const recordsHere = (refs: readonly number[]) => (here === undefined ? [] : recordsIn(here, refs, HERE));
    return {
      decode: (body) => {
        if (!open) return closed();
        return new Promise<RemotePage>((resolve, reject) => {
          queue.push({ body, resolve, reject });
          pump();
        });
      },
      help: () => {
        helping = true;
        pump();
      },
      records: async (refs) => {
        if (!open) return closed();
        const first = HERE * PAGE_SPAN;
        const thread = refs.filter((ref) => ref < first);
        if (thread.length === refs.length) {
          if (refs.length === 0) return [];
          return this.#ask<Partial<Listing>[]>({
            op: 'records',
            id: 0,
            session,
            refs: Float64Array.from(refs),
          });
        }
        const fromHere = recordsHere(refs.filter((ref) => ref >= first));
        const fromThread =
          thread.length === 0
            ? []
            : await this.#ask<Partial<Listing>[]>({
                op: 'records',
                id: 0,
                session,
                refs: Float64Array.from(thread),
              });
        // In the order asked.
        let t = 0;
        let h = 0;
        return refs.map((ref) => (ref < first ? fromThread[t++] : fromHere[h++]) as Partial<Listing>);
      },
      close: () => {
        if (!open) return;
        open = false;
        if (turn !== undefined) clearImmediate(turn);
        for (const job of queue.splice(0)) job.reject(new SnapshotError("the run's snapshot was closed"));
        here?.close();
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

  #ask<T>(request: Exclude<DecodeRequest, { op: 'close' }>, transfer: ArrayBuffer[] = []): Promise<T> {
    const worker = this.#start();
    const id = this.#nextId++;
    request.id = id;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: never) => void, reject });
      // Held open while a run waits on the thread, and only then.
      if (this.#waiting.size === 1) worker.ref();
      try {
        try {
          worker.postMessage(request, transfer);
        } catch (error) {
          // A buffer that cannot move (marked so by whoever made it): its bytes are copied instead.
          if (!(request.op === 'decode' && (error as Error).name === 'DataCloneError')) throw error;
          const body = new Uint8Array(request.body);
          worker.postMessage({ ...request, body }, [body.buffer]);
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
    if ('failure' in reply) waiting.reject(errorOf(reply.failure));
    else waiting.resolve(('page' in reply ? reply.page : reply.records) as never);
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    // The one the CLI's entry started, if it did (src/decode-thread.ts), else a new one.
    const worker = takeEarlyDecodeThread() ?? newDecodeThread();
    worker.on('message', (reply: DecodeReply) => this.#settle(reply));
    const fail = (cause: unknown) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      const error = new SnapshotError("the thread that decodes the platform's pages stopped", { cause });
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    // After the listeners: a 'message' listener holds the thread's port (and the process) open.
    worker.unref();
    this.#worker = worker;
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
    await worker?.terminate();
  }
}

/** The process's decode thread. */
export const decodePool = new DecodePool();
