import { byteLengthOf, joinedBytes, type PageBytes } from '../api/index.ts';
import type { ByteStore } from './record-store.ts';

/**
 * A run's pages as they came, by number (the decode thread's, in `RemotePage.refs`): the newest held
 * as they arrived, up to `bound` bytes, the older ones in the spill file. A page none of whose
 * records the run will ask for (`drop`: every listing on it is unchanged, `RemoteBook`) is forgotten
 * before it is written: a no-op writes no page, where it wrote every page (880 MB at a million
 * listings, ~1.5 s of the decode thread's time and the kernel's). A page the run has not judged yet
 * is kept as before: the oldest spilled once the held pages pass the bound, so memory stays bounded
 * however late the feed is known.
 */
export class PageKeep {
  readonly #store: ByteStore;
  readonly #bound: number;
  /** Page number → its pieces, oldest first (a Map keeps its insertion order). */
  readonly #held = new Map<number, PageBytes>();
  #heldBytes = 0;
  /** Page number → its number in the spill file. */
  readonly #spilled = new Map<number, number>();
  #next = 0;

  constructor(store: ByteStore, bound: number) {
    this.#store = store;
    this.#bound = bound;
  }

  /** The number the next page gets. */
  get size(): number {
    return this.#next;
  }

  /** Pages written to the spill file so far. */
  get spilled(): number {
    return this.#spilled.size;
  }

  /** Keep a page's bytes (not copied: the pieces are the keeper's from now on); its number. */
  put(pieces: PageBytes): number {
    const page = this.#next++;
    this.#held.set(page, pieces);
    this.#heldBytes += byteLengthOf(pieces);
    for (const [oldest, bytes] of this.#held) {
      if (this.#heldBytes <= this.#bound) break;
      this.#spilled.set(oldest, this.#store.put(bytes));
      this.#forget(oldest, bytes);
    }
    return page;
  }

  /** Pages whose records no one will ask for: forgotten if still held (a spilled one stays written). */
  drop(pages: Iterable<number>): void {
    for (const page of pages) {
      const bytes = this.#held.get(page);
      if (bytes !== undefined) this.#forget(page, bytes);
    }
  }

  /** A page's bytes, whole. */
  get(page: number): Uint8Array {
    const held = this.#held.get(page);
    if (held !== undefined) return joinedBytes(held);
    const ref = this.#spilled.get(page);
    if (ref === undefined)
      throw new Error(`page ${page} is not kept: its records were dropped or never read`);
    return this.#store.get(ref);
  }

  /** Frees the held pages and the file. Idempotent. */
  close(): void {
    this.#held.clear();
    this.#heldBytes = 0;
    this.#store.close();
  }

  #forget(page: number, bytes: PageBytes): void {
    this.#held.delete(page);
    this.#heldBytes -= byteLengthOf(bytes);
  }
}
