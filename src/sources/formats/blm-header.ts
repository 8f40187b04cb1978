/** The delimiters a BLM file declares in its `#HEADER#` section. */
export interface BlmDelimiters {
  /** End of field: `^` unless the header says otherwise. */
  eof: string;
  /** End of record: `~` unless the header says otherwise. */
  eor: string;
}

/** What the `#HEADER#` section says: its `Key : value` lines, and the delimiters. */
export interface BlmHeader extends BlmDelimiters {
  values: Record<string, string>;
}

/**
 * Parse the text between `#HEADER#` and `#DEFINITION#`: lines `Version : 3`, `EOF : '^'`,
 * `EOR : '~'`, `Property Count : 12`. Rightmove's specification quotes the delimiters; a header
 * without EOF/EOR uses the specification's defaults. Returns an error text for a header that
 * cannot be right (empty or equal delimiters, or one holding `#`, which starts the section markers).
 */
export function parseBlmHeader(text: string): BlmHeader | string {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r\n|\r|\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim();
    if (key) values[key.toUpperCase()] = line.slice(colon + 1).trim();
  }
  const eof = delimiter(values.EOF) ?? '^';
  const eor = delimiter(values.EOR) ?? '~';
  if (eof === '' || eor === '') return 'the header declares an empty EOF or EOR delimiter';
  if (eof === eor) return `the header declares the same EOF and EOR delimiter "${eof}"`;
  if (eof.includes(eor) || eor.includes(eof))
    return `the header's EOF "${eof}" and EOR "${eor}" delimiters overlap`;
  if (eof.includes('#') || eor.includes('#')) return 'the header declares a delimiter holding "#"';
  return { eof, eor, values };
}

/** `'^'` → `^`; `"|"` → `|`; a bare `^` is taken as written. Undefined when not given. */
function delimiter(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const quoted = /^(['"])(.*)\1$/s.exec(value);
  return quoted ? quoted[2]!.replace(/\\n/g, '\n').replace(/\\r/g, '\r').replace(/\\t/g, '\t') : value;
}

/** Column names of the `#DEFINITION#` line, without the empty name a trailing EOF leaves. */
export function parseBlmDefinition(text: string, { eof, eor }: BlmDelimiters): string[] | string {
  const end = text.indexOf(eor);
  const line = (end >= 0 ? text.slice(0, end) : text).trim();
  const names = line.split(eof).map((name) => name.trim());
  if (names.at(-1) === '') names.pop();
  if (names.length === 0 || names.some((name) => name === ''))
    return 'the #DEFINITION# line has an empty column name';
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) return `the #DEFINITION# line names ${name} twice`;
    seen.add(name);
  }
  return names;
}
