import type { RawRecord } from '../source-types.ts';

/**
 * A row fits the header when it has a field for every named column, and any fields beyond them
 * are empty (exports pad rows with trailing delimiters, as they pad the header).
 */
export function fitsHeader(record: readonly string[], named: number): boolean {
  if (record.length < named) return false;
  for (let i = named; i < record.length; i++) if (record[i]!.trim() !== '') return false;
  return true;
}

export type Held = { record: string[]; row: number; fields: RawRecord['fields'] };
export type Verdict = { kind: 'record' | 'hold'; note?: string; heldNote?: string };

/**
 * Whether a row longer than the header, with only empty cells beyond it, is padding or a shifted
 * row. `77 Pine Ct, Unit B,…,https://…/ML103,` (an unquoted comma in the address, the last column
 * empty) looks padded, but its values sit one column to the right. A longer row is padding only:
 * - when the header is as long (its trailing names are empty too: `MLS #,Address,,`), or
 * - when the file pads its rows: the first two rows longer than the header agree on their length,
 *   and no row fits the header without padding. The first such row is held until the next row says.
 * Any other longer row is rejected by row, like a row with a value beyond the header. A held row
 * that the file ends after is padding (nothing says otherwise).
 */
export class Padding {
  /** Fields of the header record, its empty trailing names included. */
  private width = 0;
  private named = 0;
  /** The length the file pads its rows to, once two rows agree. */
  private padded: number | undefined;
  /** A row fit the header as it is: this file does not pad. */
  private unpadded = false;
  /** A longer row waiting for the next one to say whether the file pads. */
  pending: Held | undefined;

  header(width: number, named: number): void {
    this.width = width;
    this.named = named;
  }

  /** The verdict on a row (`note`: why it is rejected), and on the held row before it (`heldNote`). */
  judge(record: readonly string[]): Verdict {
    const width = Math.max(this.width, this.named);
    const longer = record.length > width && fitsHeader(record, this.named);
    const fits = record.length >= this.named && record.length <= width;
    const held = this.pending;
    this.pending = undefined;
    let heldNote: string | undefined;
    // A row that fits the header says the file does not pad; one padded otherwise, that the held row
    // is an odd one. A broken row (cut short, a value beyond the header) says nothing: the held row
    // stands as padding.
    if (held && ((longer && record.length !== held.record.length) || fits))
      heldNote = this.shifted(held.record.length);
    else if (held && longer) this.padded = record.length;
    if (!longer) {
      if (fits) this.unpadded = true;
      return { kind: 'record', ...(heldNote === undefined ? {} : { heldNote }) };
    }
    const note =
      record.length === this.padded
        ? undefined
        : this.unpadded || this.padded !== undefined
          ? this.shifted(record.length)
          : 'hold';
    if (note === 'hold') return { kind: 'hold', ...(heldNote === undefined ? {} : { heldNote }) };
    return {
      kind: 'record',
      ...(note === undefined ? {} : { note }),
      ...(heldNote === undefined ? {} : { heldNote }),
    };
  }

  private shifted(length: number): string {
    return `has ${length} fields, the header has ${this.named}, and the file's other rows are not padded to ${length} (an unquoted delimiter in a value?)`;
  }
}
