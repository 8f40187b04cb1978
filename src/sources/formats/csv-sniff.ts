const CANDIDATES = [',', ';', '\t', '|'] as const;

/** The delimiter occurring most often outside quotes in the header line; `,` when none occurs. */
export function sniffDelimiter(headerLine: string, quote = '"'): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of headerLine) {
    if (char === quote) quoted = !quoted;
    else if (!quoted && (CANDIDATES as readonly string[]).includes(char))
      counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ',';
  let bestCount = 0;
  for (const candidate of CANDIDATES) {
    const count = counts.get(candidate) ?? 0;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Column names from the header record: trimmed; trailing empty columns dropped; an empty name in the
 * middle becomes `Column 7`; a repeated name becomes `Name (2)` so no value silently overwrites another.
 */
export function headerNames(header: readonly string[]): string[] {
  // NFC: a header written with a combining mark (`a` + `¨`, macOS exports) matches the mapping's `ä`.
  const names = header.map((name) => name.trim().normalize('NFC'));
  while (names.length > 0 && names[names.length - 1] === '') names.pop();
  // A repeated name gets a number: `Photo`, `Photo (2)`. A number another column already has as its
  // own name (`a`, `a (2)`, `a`) moves on to the next one, so no two columns share a name.
  const taken = new Set<string>();
  const seen = new Map<string, number>();
  const bases = names.map((name, i) => name || `Column ${i + 1}`);
  for (const base of bases) taken.add(base);
  const used = new Set<string>();
  return bases.map((base) => {
    let count = seen.get(base) ?? 0;
    let name = count === 0 ? base : `${base} (${count + 1})`;
    while (used.has(name) || (count > 0 && taken.has(name))) {
      count++;
      name = `${base} (${count + 1})`;
    }
    seen.set(base, count + 1);
    used.add(name);
    return name;
  });
}

/**
 * Line breaks inside a record's fields: a quoted field can span lines, and rows are numbered by
 * their first line. `\n` and `\r\n` count once, a lone `\r` too unless it ends the record (the
 * first half of a `\r\n` when the parser split records on `\n`).
 */
export function countLineBreaks(fields: readonly string[]): number {
  let count = 0;
  const last = fields.length - 1;
  for (let f = 0; f <= last; f++) {
    const field = fields[f]!;
    for (let i = field.indexOf('\n'); i >= 0; i = field.indexOf('\n', i + 1)) count++;
    for (let i = field.indexOf('\r'); i >= 0; i = field.indexOf('\r', i + 1)) {
      if (field[i + 1] !== '\n' && !(f === last && i === field.length - 1)) count++;
    }
  }
  return count;
}

/** A blank line, or a row of empty (or blank) fields only: `,,,`. */
export function isBlankRecord(fields: readonly string[]): boolean {
  for (const field of fields) if (field.length > 0 && field.trim() !== '') return false;
  return true;
}
