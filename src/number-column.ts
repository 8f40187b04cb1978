/** Numbers a chunk holds: 64 KiB of doubles, 32 KiB of 32-bit integers. */
const CHUNK = 8192;
const SHIFT = 13;
/** Numbers the first chunk holds before it grows. */
const FIRST = 64;

type Chunk = Float64Array | Int32Array | Uint32Array;

/**
 * A growable column of numbers (one per listing) in fixed chunks. A doubling typed array leaves up
 * to half of itself unused (300k listings take 524,288 slots) and each growth copies it and frees
 * the old one: at 300k listings, megabytes of the process's memory that never go back. Chunks are
 * never copied, and at most one is partly used.
 */
export class NumberColumn<C extends Chunk = Float64Array> {
  readonly #make: (length: number) => C;
  readonly #chunks: C[] = [];

  constructor(make: (length: number) => C) {
    this.#make = make;
  }

  get(i: number): number {
    // Unset numbers read 0, as in a full chunk, also past the end of a first chunk not grown yet
    // and past the last chunk (a column by key id read before any key is kept).
    return this.#chunks[i >>> SHIFT]?.[i & (CHUNK - 1)] ?? 0;
  }

  set(i: number, value: number): void {
    while (i >>> SHIFT >= this.#chunks.length)
      this.#chunks.push(this.#make(this.#chunks.length ? CHUNK : FIRST));
    const first = this.#chunks[0] as C;
    // The first chunk starts small and doubles up to a full one (copies of at most 64 KiB, once):
    // a worker runs dozens of small feeds at once, each with several columns (issue 23).
    if (i < CHUNK && i >= first.length) this.#chunks[0] = this.#grown(first, i);
    (this.#chunks[i >>> SHIFT] as C)[i & (CHUNK - 1)] = value;
  }

  #grown(first: C, i: number): C {
    let length = first.length;
    while (length <= i) length *= 2;
    const grown = this.#make(Math.min(CHUNK, length));
    grown.set(first);
    return grown;
  }
}

export const float64s = () => new NumberColumn((n) => new Float64Array(n));
export const int32s = () => new NumberColumn((n) => new Int32Array(n));
export const uint32s = () => new NumberColumn((n) => new Uint32Array(n));
