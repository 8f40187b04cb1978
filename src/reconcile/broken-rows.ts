import type { BrokenRow } from '../ingest/index.ts';

export type { BrokenRow };

/** Letters and digits: what a key is told apart from its neighbours by. */
const WORD = /[\p{L}\p{N}]/u;
const WORDS = /[\p{L}\p{N}]+/gu;

/**
 * The broken rows of a feed (fields that do not fit the header), searchable by key: a listing whose
 * key appears anywhere in one of them, as a whole word of its text, may be that row, so it is held
 * rather than deleted. `ML1234` appears in `ML1234`, `ML1234 Main St` and `x,ML1234`, not in
 * `ML12345`. Pure; the rows' words are indexed once, so a key costs a lookup, not a scan.
 */
export class BrokenRowIndex {
  readonly #rows: readonly { row: BrokenRow; text: string }[];
  /** Rows by each word of their text. */
  readonly #byWord = new Map<string, number[]>();
  /** Keyless records' rows by the keys they name exactly (`BrokenRow.exact`). */
  readonly #byKey = new Map<string, BrokenRow>();

  constructor(rows: readonly BrokenRow[]) {
    for (const row of rows)
      if (row.exact) for (const cell of row.cells) if (!this.#byKey.has(cell)) this.#byKey.set(cell, row);
    // Cells joined by a character no key has, so a match never spans two cells.
    this.#rows = rows.filter((row) => !row.exact).map((row) => ({ row, text: row.cells.join('\u0000') }));
    this.#rows.forEach((row, i) => {
      for (const word of new Set(row.text.match(WORDS) ?? [])) {
        const list = this.#byWord.get(word);
        if (list === undefined) this.#byWord.set(word, [i]);
        else list.push(i);
      }
    });
  }

  get size(): number {
    return this.#rows.length + this.#byKey.size;
  }

  /** The first broken row carrying `key`, if one does (a keyless record naming it exactly first). */
  find(key: string): BrokenRow | undefined {
    const named = this.#byKey.get(key);
    if (named !== undefined) return named;
    if (this.#rows.length === 0 || key === '') return undefined;
    const words = key.match(WORDS);
    // A key's longest word is the rarest: only the rows that have it can carry the key.
    const longest = words?.reduce((a, b) => (b.length > a.length ? b : a));
    const candidates =
      longest === undefined ? this.#rows.map((_, i) => i) : (this.#byWord.get(longest) ?? []);
    for (const i of candidates) {
      const { row, text } = this.#rows[i]!;
      if (containsWord(text, key)) return row;
    }
    return undefined;
  }
}

/** Whether `key` occurs in `text` with no letter or digit right before or after it. */
export function containsWord(text: string, key: string): boolean {
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + key.length] ?? '';
    const joinsBefore = before !== '' && WORD.test(before) && WORD.test(key[0]!);
    const joinsAfter = after !== '' && WORD.test(after) && WORD.test(key.at(-1)!);
    if (!joinsBefore && !joinsAfter) return true;
  }
  return false;
}
