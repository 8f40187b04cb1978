/**
 * Tokens of the OData `$filter` subset the four providers document: identifiers, string, number,
 * boolean, null, date and datetime literals, parentheses and commas. Operators (`eq`, `and`, `in`…)
 * come out as identifiers; the parser tells them apart.
 */
export type Token =
  | { kind: 'ident'; text: string; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: 'datetime'; value: number; text: string; at: number }
  | { kind: 'date'; text: string; at: number }
  | { kind: '(' | ')' | ','; at: number };

/** A `$filter` that cannot be read; `at` is the character position (0-based). */
export class FilterSyntaxError extends Error {
  readonly at: number;

  constructor(message: string, at: number) {
    super(`${message} at position ${at}`);
    this.at = at;
    this.name = 'FilterSyntaxError';
  }
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:\d{2})/;
const DATE = /^\d{4}-\d{2}-\d{2}(?![\dT:])/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_.]*/;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const ch = text[at]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      at++;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ kind: ch, at });
      at++;
      continue;
    }
    if (ch === "'") {
      const { value, end } = readString(text, at);
      tokens.push({ kind: 'string', value, at });
      at = end;
      continue;
    }
    const rest = text.slice(at);
    const literal = readLiteral(rest, at);
    if (literal) {
      tokens.push(literal.token);
      at += literal.length;
      continue;
    }
    const ident = IDENT.exec(rest);
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0], at });
      at += ident[0].length;
      continue;
    }
    throw new FilterSyntaxError(`unexpected character ${JSON.stringify(ch)}`, at);
  }
  return tokens;
}

function readLiteral(rest: string, at: number): { token: Token; length: number } | undefined {
  const datetime = DATETIME.exec(rest);
  if (datetime) {
    const value = Date.parse(datetime[0]);
    if (Number.isNaN(value)) throw new FilterSyntaxError(`invalid datetime ${datetime[0]}`, at);
    return { token: { kind: 'datetime', value, text: datetime[0], at }, length: datetime[0].length };
  }
  const date = DATE.exec(rest);
  if (date) return { token: { kind: 'date', text: date[0], at }, length: date[0].length };
  const number = NUMBER.exec(rest);
  if (number) return { token: { kind: 'number', value: Number(number[0]), at }, length: number[0].length };
  return undefined;
}

/** A single-quoted string; `''` is a quote inside it (OData ABNF). */
function readString(text: string, start: number): { value: string; end: number } {
  let value = '';
  let at = start + 1;
  while (at < text.length) {
    const ch = text[at]!;
    if (ch === "'") {
      if (text[at + 1] === "'") {
        value += "'";
        at += 2;
        continue;
      }
      return { value, end: at + 1 };
    }
    value += ch;
    at++;
  }
  throw new FilterSyntaxError('unterminated string', start);
}
