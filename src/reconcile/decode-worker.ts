/**
 * The thread a process decodes the platform's list pages in (`decode-pool.ts`): JSON, the envelope
 * and its schema, canonical form, digests, and each listing's record kept in a spill file of the
 * run's own (a session). It holds nothing else, and talks only through messages.
 */
import { parentPort } from 'node:worker_threads';
import { isApiError } from '../api/index.ts';
import type { DecodeReply, DecodeRequest, FailureOf } from './decode-protocol.ts';
import { type ByteStore, spillBytes } from './record-store.ts';
import { decodePage, recordsIn, transferablesOf } from './remote-page.ts';

const port = parentPort;
if (port === null) throw new Error('decode-worker.ts runs as a worker thread (decode-pool.ts)');

/** Each run's pages as they came, in a spill file of its own. */
const stores = new Map<number, ByteStore>();
const utf8 = new TextDecoder();

function failureOf(error: unknown): FailureOf {
  if (isApiError(error)) {
    const { platformCode, platformMessage, field } = error as {
      platformCode?: number;
      platformMessage?: string;
      field?: string;
    };
    return {
      code: error.code,
      message: error.message,
      ...(platformCode === undefined ? {} : { platformCode }),
      ...(platformMessage === undefined ? {} : { platformMessage }),
      ...(field === undefined ? {} : { field }),
    };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { code: 'E_DECODE', message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
}

port.on('message', (request: DecodeRequest) => {
  const reply = (message: DecodeReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  try {
    if (request.op === 'close') {
      stores.get(request.session)?.close();
      stores.delete(request.session);
      return;
    }
    let store = stores.get(request.session);
    if (request.op === 'decode') {
      if (store === undefined) {
        store = spillBytes();
        stores.set(request.session, store);
      }
      // Kept only once it decoded: a page that failed is read again, and numbered then.
      const page = decodePage(utf8.decode(request.body), request.keyField, request.tags, store.size);
      store.put(request.body);
      reply({ id: request.id, page }, transferablesOf(page));
      return;
    }
    if (store === undefined) throw new Error(`no records kept for session ${request.session}`);
    reply({ id: request.id, records: recordsIn(store, request.refs) });
  } catch (error) {
    if (request.op !== 'close') reply({ id: request.id, failure: failureOf(error) });
  }
});
