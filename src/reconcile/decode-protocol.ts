import type { MessagePort } from 'node:worker_threads';
import type { Listing } from '../normalize/index.ts';
import type { TagKeys } from './ownership.ts';
import type { RemotePage } from './remote-page.ts';

/** What a run asks of the decode thread (decode-pool.ts ↔ decode-worker.ts). */
export type DecodeRequest =
  | {
      op: 'decode';
      id: number;
      session: number;
      /** The page's UTF-8 bytes, in the pieces they arrived in, handed over (transferred), not copied. */
      body: Uint8Array[];
      keyField: 'MLSNumber' | 'Url';
      tags: TagKeys;
    }
  | {
      /**
       * The session's page memo (`page-memo.ts`): the last run's, if any, to decode known pages
       * from; `keep`: each page decoded comes back with its entry for the memo this run leaves.
       */
      op: 'memo';
      session: number;
      salt: string;
      bytes?: Uint8Array;
      keep: boolean;
    }
  | { op: 'records'; id: number; session: number; refs: Float64Array }
  /**
   * Pages (the thread's numbers) joined with the feed: `unwanted`, none of whose records the run will
   * ask for, forgotten; `wanted`, written to the spill file now (`PageKeep`). Posted on the thread's
   * settle port (`settle-port`), not in line behind the pages still to decode.
   */
  | { op: 'settle'; session: number; unwanted: number[]; wanted: number[] }
  /** The port the run's settles come on, handed over before any page (`decode-pool.ts`). */
  | { op: 'settle-port'; port: MessagePort }
  | {
      /**
       * Every page is read: whether the memo this run leaves is the last one (`written`: the pages
       * this run decoded and wrote entries for; none, and every entry of the last memo known again),
       * else the entries of the pages it knew, to write beside those.
       */
      op: 'memo-end';
      id: number;
      session: number;
      written: number;
    }
  /** How many of the session's pages the thread has written to its spill file (`PageKeep.spilled`). */
  | { op: 'spilled'; id: number; session: number }
  | { op: 'close'; session: number };

/** What a session's page memo comes to once every page is read (`memo-end`). */
export type MemoEnd = { same: true } | { same: false; entries: Uint8Array; count: number };

/** A failure, as plain data: the pool rebuilds the client's error from it, so retries read it alike. */
export interface FailureOf {
  code: string;
  message: string;
  platformCode?: number;
  platformMessage?: string;
  field?: string;
  stack?: string;
}

export type DecodeReply =
  /** A page decoded (or read from the memo), and its memo entry when the session keeps one. */
  | { id: number; page: RemotePage; entry?: Uint8Array }
  | { id: number; records: Partial<Listing>[] }
  | { id: number; memo: MemoEnd }
  | { id: number; spilled: number }
  | { id: number; failure: FailureOf };
