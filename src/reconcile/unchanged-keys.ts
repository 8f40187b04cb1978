import { int32s } from '../number-column.ts';

/**
 * Keys, as a plan's `unchanged` is read: how many, whether one is among them, and the keys in
 * order. An array of strings is one (tests and hand-made plans use them); `UnchangedKeys` is the
 * plan's own.
 */
export interface KeyList extends Iterable<string> {
  readonly length: number;
  includes(key: string): boolean;
}

/**
 * The keys a plan leaves as they are, held as the feed's record numbers (4 bytes a key) and read
 * through the feed's index only when asked: on a no-op of a million listings every key is
 * unchanged, and a string per key (kept and sorted) is what issue 23 §2 asks a run not to hold.
 * Iterated (and serialized, `plan --json`) in key order, as the array it replaces was.
 */
export class UnchangedKeys implements KeyList {
  readonly #refs = int32s();
  #length = 0;
  readonly #keyAt: (ref: number) => string;
  readonly #compare: ((a: number, b: number) => number) | undefined;

  /**
   * `compare` puts two records in the order of their keys without making them (the feed's index,
   * `compareKeys`): with it, the keys are iterated in order one string at a time, none kept.
   */
  constructor(keyAt: (ref: number) => string, compare?: (a: number, b: number) => number) {
    this.#keyAt = keyAt;
    this.#compare = compare;
  }

  /** Note the key of record `ref` as unchanged. */
  add(ref: number): void {
    this.#refs.set(this.#length++, ref);
  }

  get length(): number {
    return this.#length;
  }

  /** One key (`explain`): a pass over the records, no key kept. */
  includes(key: string): boolean {
    for (let i = 0; i < this.#length; i++) if (this.#keyAt(this.#refs.get(i)) === key) return true;
    return false;
  }

  /** The keys, sorted: built only here, for a plan shown whole (`plan --json`, tests). */
  sorted(): string[] {
    const keys = new Array<string>(this.#length);
    for (let i = 0; i < this.#length; i++) keys[i] = this.#keyAt(this.#refs.get(i));
    return keys.sort();
  }

  /**
   * The keys in order. With a `compare`, the record numbers are sorted (4 bytes a key) and each
   * key made as it is read: `plan --json` of a million unchanged listings holds no million strings.
   */
  *[Symbol.iterator](): Iterator<string> {
    if (this.#compare === undefined) {
      yield* this.sorted();
      return;
    }
    const refs = new Int32Array(this.#length);
    for (let i = 0; i < this.#length; i++) refs[i] = this.#refs.get(i);
    refs.sort(this.#compare);
    for (const ref of refs) yield this.#keyAt(ref);
  }

  toJSON(): string[] {
    return this.sorted();
  }
}
