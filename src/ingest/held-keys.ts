import { KeyArena, KeySet } from '../key-arena.ts';
import { int32s } from '../number-column.ts';
import type { HeldKey, HeldKeyList } from './types.ts';

/** A message kept whole (`WHOLE`), or after `Row N of ` (`ROW`) or `Record N of ` (`RECORD`), remade from the row. */
const WHOLE = 0;
const ROW = 1;
const RECORD = 2;
const FORMS = 4;

/**
 * The holds of a feed's rejected records, in columns, as they are read (issue 23 §2: nothing that
 * grows with the feed is an object per listing): the key's bytes in an arena, the row, the record's
 * number, the reason (interned) and the message. A message is kept once per distinct text after its
 * place (`Row 812 of `): the records of a column renamed all say `acme.csv: SalePrice "call" is not
 * a number`, so a million held keys hold a few texts, not a million. A hold is made an object only
 * when read (`at`).
 *
 * Measured (a feed of 1M records, every one rejected, under the image's heap bound): an object, its
 * key and its message per held key were ~210 bytes of the heap, and ran out of it at ~530k records;
 * here ~25 bytes a key, in typed arrays.
 */
export class HeldKeyColumns {
  readonly #keys = new KeyArena();
  /** Row plus one (0: the record has no row). */
  readonly #rows = int32s();
  readonly #indexes = int32s();
  readonly #reasons = int32s();
  readonly #reasonNames: string[] = [];
  readonly #reasonNumbers = new Map<string, number>();
  /** The text's id times `FORMS`, plus its form. */
  readonly #messages = int32s();
  readonly #texts = new KeySet();

  /** Holds added, also those a later record of their key let go of (`HeldKeys` picks the live ones). */
  get size(): number {
    return this.#keys.size;
  }

  /** Adds a hold; returns its number. */
  add(hold: HeldKey): number {
    const i = this.#keys.add(hold.key);
    this.#rows.set(i, hold.row === undefined ? 0 : hold.row + 1);
    this.#indexes.set(i, hold.index);
    this.#reasons.set(i, this.#reasonNumber(hold.reason));
    const [text, form] = textOf(hold);
    this.#messages.set(i, this.#texts.intern(text) * FORMS + form);
    return i;
  }

  keyAt(i: number): string {
    return this.#keys.keyAt(i);
  }

  /** Distinct message texts kept (after their places). */
  get texts(): number {
    return this.#texts.size;
  }

  /** Hold `i`, a new object each time. */
  at(i: number): HeldKey {
    const rowPlusOne = this.#rows.get(i);
    const index = this.#indexes.get(i);
    const message = this.#messages.get(i);
    const text = this.#texts.keyAt(Math.floor(message / FORMS));
    const form = message % FORMS;
    const hold: HeldKey = {
      key: this.#keys.keyAt(i),
      index,
      reason: this.#reasonNames[this.#reasons.get(i)] as string,
      message:
        form === ROW
          ? `Row ${rowPlusOne - 1} of ${text}`
          : form === RECORD
            ? `Record ${index + 1} of ${text}`
            : text,
    };
    if (rowPlusOne !== 0) hold.row = rowPlusOne - 1;
    return hold;
  }

  #reasonNumber(reason: string): number {
    let n = this.#reasonNumbers.get(reason);
    if (n === undefined) {
      n = this.#reasonNames.push(reason) - 1;
      this.#reasonNumbers.set(reason, n);
    }
    return n;
  }
}

/** What is kept of a hold's message: the text after its place, when the place is its row's or record's. */
function textOf(hold: HeldKey): [string, number] {
  const { message, row, index } = hold;
  if (row !== undefined) {
    const place = `Row ${row} of `;
    if (message.startsWith(place)) return [message.slice(place.length), ROW];
  }
  const place = `Record ${index + 1} of `;
  if (message.startsWith(place)) return [message.slice(place.length), RECORD];
  return [message, WHOLE];
}

/**
 * Some holds of a `HeldKeyColumns`, in a given order (the feed's order of each key's last record):
 * `IngestResult.held`. A list as a plan reads one (`length`, `at`, in order); each hold made when read.
 */
export class HeldKeys implements HeldKeyList {
  readonly #columns: HeldKeyColumns;
  readonly #order: Int32Array;

  constructor(columns: HeldKeyColumns, order: Int32Array) {
    this.#columns = columns;
    this.#order = order;
  }

  get length(): number {
    return this.#order.length;
  }

  /** The hold at `index` (negative: from the end), or undefined past the end. */
  at(index: number): HeldKey | undefined {
    const i = index < 0 ? this.#order.length + index : index;
    if (i < 0 || i >= this.#order.length) return undefined;
    return this.#columns.at(this.#order[i] as number);
  }

  /** The key of the hold at `index` (no object made). */
  keyAt(index: number): string {
    const i = this.#order[index];
    if (i === undefined) throw new RangeError(`no hold ${index} (${this.#order.length} held)`);
    return this.#columns.keyAt(i);
  }

  /** The holds from `start` to `end` (as `Array.prototype.slice`), as objects. */
  slice(start = 0, end = this.#order.length): HeldKey[] {
    const out: HeldKey[] = [];
    for (const i of this.#order.subarray(start, end)) out.push(this.#columns.at(i));
    return out;
  }

  *[Symbol.iterator](): Iterator<HeldKey> {
    for (const i of this.#order) yield this.#columns.at(i);
  }

  /** Every hold as an object: for a result printed whole (`validate --json` streams it instead). */
  toJSON(): HeldKey[] {
    return this.slice();
  }
}
