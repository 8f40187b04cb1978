import { KeyArena, KeySet } from '../key-arena.ts';
import { int32s } from '../number-column.ts';
import type { HeldKey, HeldKeyList } from './types.ts';

/** A message kept whole (`WHOLE`), or after `Row N of ` (`ROW`) or `Record N of ` (`RECORD`), remade from the row. */
const WHOLE = 0;
const ROW = 1;
const RECORD = 2;
/** Places, times one more when the text named the key (`(MLSNumber M-1)`, cut out: `#keyAt`). */
const PLACES = 3;
const KEY_FIELDS = ['MLSNumber', 'Url'] as const;
const FORMS = PLACES * (KEY_FIELDS.length + 1);

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
  /** Where in its text the key was cut out (` (MLSNumber M-1)`), for a form that cut it. */
  readonly #keyAt = int32s();
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
    const { text, form, keyAt } = textOf(hold);
    this.#messages.set(i, this.#texts.intern(text) * FORMS + form);
    if (keyAt !== undefined) this.#keyAt.set(i, keyAt);
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
    const key = this.#keys.keyAt(i);
    let text = this.#texts.keyAt(Math.floor(message / FORMS));
    const form = message % FORMS;
    const keyField = KEY_FIELDS[Math.floor(form / PLACES) - 1];
    if (keyField !== undefined) {
      const at = this.#keyAt.get(i);
      text = `${text.slice(0, at)} (${keyField} ${key})${text.slice(at)}`;
    }
    const place = form % PLACES;
    const hold: HeldKey = {
      key,
      index,
      reason: this.#reasonNames[this.#reasons.get(i)] as string,
      message:
        place === ROW
          ? `Row ${rowPlusOne - 1} of ${text}`
          : place === RECORD
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

/**
 * What is kept of a hold's message: the text after its place, when the place is its row's or
 * record's; and without the key, where the text names it (a record without a row is named by its
 * key too: `Record 8 of listings.xml (MLSNumber M-1): …`), so that records rejected alike share it.
 */
function textOf(hold: HeldKey): { text: string; form: number; keyAt?: number } {
  const { message, row, index, key } = hold;
  let text = message;
  let place = WHOLE;
  const rowPlace = row === undefined ? undefined : `Row ${row} of `;
  const recordPlace = `Record ${index + 1} of `;
  if (rowPlace !== undefined && message.startsWith(rowPlace)) {
    text = message.slice(rowPlace.length);
    place = ROW;
  } else if (message.startsWith(recordPlace)) {
    text = message.slice(recordPlace.length);
    place = RECORD;
  }
  for (const [n, field] of KEY_FIELDS.entries()) {
    const named = ` (${field} ${key})`;
    const at = key === '' ? -1 : text.indexOf(named);
    if (at !== -1)
      return {
        text: text.slice(0, at) + text.slice(at + named.length),
        form: place + PLACES * (n + 1),
        keyAt: at,
      };
  }
  return { text, form: place };
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
