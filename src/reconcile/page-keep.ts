import { byteLengthOf, joinedBytes, type PageBytes } from '../api/index.ts';
import type { ByteStore } from './record-store.ts';

/**
 * The bytes of pages held unwritten by every `PageKeep` of a thread together, up to `bound`: past
 * it, the oldest held page of any run is written to its run's spill file. One budget for the decode
 * thread, however many runs it serves at once (a worker runs up to 128), so what it holds stays
 * bounded as the spill file alone kept it, apart from this.
 */
export class HeldBudget {
  readonly #bound: number;
  #bytes = 0;
  #next = 0;
  /** Held pages, oldest first (a Map keeps its insertion order): each one's size and how to write it out. */
  readonly #held = new Map<number, { bytes: number; spill: () => void }>();

  constructor(bound: number) {
    this.#bound = bound;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Hold `bytes` that `spill` writes out when the budget needs them gone; the hold's token, or
   * undefined when they are more than the whole budget (the caller writes them now: the others held
   * stay held).
   */
  hold(bytes: number, spill: () => void): number | undefined {
    if (bytes > this.#bound) return undefined;
    const token = this.#next++;
    this.#held.set(token, { bytes, spill });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#held) {
      if (this.#bytes <= this.#bound) break;
      entry.spill();
      this.release(oldest);
    }
    return token;
  }

  /** The bytes of `token` are no longer held (written, dropped or freed). Idempotent. */
  release(token: number): void {
    const entry = this.#held.get(token);
    if (entry === undefined) return;
    this.#held.delete(token);
    this.#bytes -= entry.bytes;
  }
}

/**
 * A run's pages as they came, by number (the decode thread's, in `RemotePage.refs`): the newest held
 * as they arrived, within the thread's `HeldBudget`, the older ones in the run's spill file. A page
 * none of whose records the run will ask for (`drop`: every listing on it unchanged, another feed's
 * or deleted by its key, `RemoteBook`) is forgotten before it is written: a no-op writes no page,
 * where it wrote every page (~880 MB at a million listings, ~0.5 s of system time). A page the run
 * has not judged yet is held until it is judged (a page whose records the run will read back is
 * written then, `write`), or written once the budget needs its bytes, so memory stays bounded
 * however late the feed is known.
 */
export class PageKeep {
  readonly #store: ByteStore;
  readonly #budget: HeldBudget;
  /** Page number → its pieces and its hold on the budget. */
  readonly #held = new Map<number, { pieces: PageBytes; token: number }>();
  /** Page number → its number in the spill file. */
  readonly #spilled = new Map<number, number>();
  #next = 0;

  constructor(store: ByteStore, budget: HeldBudget) {
    this.#store = store;
    this.#budget = budget;
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
    const held = { pieces, token: -1 };
    this.#held.set(page, held);
    const token = this.#budget.hold(byteLengthOf(pieces), () => this.#spill(page));
    if (token === undefined) this.#spill(page);
    else held.token = token;
    return page;
  }

  /** Pages whose records no one will ask for: forgotten if still held (a written one stays written). */
  drop(pages: Iterable<number>): void {
    for (const page of pages) {
      const held = this.#held.get(page);
      if (held === undefined) continue;
      this.#held.delete(page);
      this.#budget.release(held.token);
    }
  }

  /** Pages whose records the run will ask for: written now, if still held, rather than held. */
  write(pages: Iterable<number>): void {
    for (const page of pages) {
      const held = this.#held.get(page);
      if (held === undefined) continue;
      this.#spill(page);
      this.#budget.release(held.token);
    }
  }

  /** A page's bytes, whole; a written one read into `into`'s buffer when given (`ByteStore.get`). */
  get(page: number, into?: (length: number) => Buffer): Uint8Array {
    const held = this.#held.get(page);
    if (held !== undefined) return joinedBytes(held.pieces);
    const ref = this.#spilled.get(page);
    if (ref === undefined)
      throw new Error(`page ${page} is not kept: its records were dropped or never read`);
    return this.#store.get(ref, into);
  }

  /** Frees the held pages and the file. Idempotent. */
  close(): void {
    for (const held of this.#held.values()) this.#budget.release(held.token);
    this.#held.clear();
    this.#store.close();
  }

  #spill(page: number): void {
    const held = this.#held.get(page);
    if (held === undefined) return;
    this.#spilled.set(page, this.#store.put(held.pieces));
    this.#held.delete(page);
  }
}
