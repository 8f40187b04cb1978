import { FilterSyntaxError, type Token, tokenize } from './odata-lexer.ts';

export { FilterSyntaxError } from './odata-lexer.ts';

export type Comparison = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

export type Literal =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  /** Milliseconds since the epoch; `text` as written. */
  | { kind: 'datetime'; value: number; text: string }
  /** `YYYY-MM-DD`. */
  | { kind: 'date'; value: string };

/** A parsed `$filter`: comparisons of a field with a literal, `in`, `and`, `or`, `not`. */
export type Filter =
  | { type: 'and' | 'or'; left: Filter; right: Filter }
  | { type: 'not'; expr: Filter }
  | { type: 'cmp'; op: Comparison; field: string; value: Literal }
  | { type: 'in'; field: string; values: Literal[] };

const COMPARISONS = new Set<string>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const KEYWORDS = new Set<string>([...COMPARISONS, 'and', 'or', 'not', 'in', 'true', 'false', 'null']);

/**
 * Parse the subset of OData `$filter` the providers document (eq/ne/gt/ge/lt/le, and/or/not,
 * parentheses, `in`, string/number/boolean/null/date/datetime literals). `and` binds tighter than
 * `or`, as in OData. Functions (`contains`, `year`…) are refused: no provider's replication rules
 * need them. Throws `FilterSyntaxError` naming the position.
 */
export function parseFilter(text: string): Filter {
  const parser = new Parser(tokenize(text), text.length);
  const filter = parser.or();
  parser.end();
  return filter;
}

class Parser {
  private at = 0;
  private readonly tokens: Token[];
  private readonly length: number;

  constructor(tokens: Token[], length: number) {
    this.tokens = tokens;
    this.length = length;
  }

  or(): Filter {
    let left = this.and();
    while (this.keyword('or')) left = { type: 'or', left, right: this.and() };
    return left;
  }

  and(): Filter {
    let left = this.not();
    while (this.keyword('and')) left = { type: 'and', left, right: this.not() };
    return left;
  }

  not(): Filter {
    if (this.keyword('not')) return { type: 'not', expr: this.not() };
    return this.primary();
  }

  primary(): Filter {
    const token = this.peek();
    if (token?.kind === '(') {
      this.at++;
      const inner = this.or();
      this.expect(')');
      return inner;
    }
    const field = this.field();
    const op = this.next('a comparison operator (eq, ne, gt, ge, lt, le, in)');
    if (op.kind === 'ident' && op.text === 'in') return { type: 'in', field, values: this.list() };
    if (op.kind !== 'ident' || !COMPARISONS.has(op.text))
      throw new FilterSyntaxError('expected a comparison operator (eq, ne, gt, ge, lt, le, in)', op.at);
    return { type: 'cmp', op: op.text as Comparison, field, value: this.literal() };
  }

  private field(): string {
    const token = this.next('a field name');
    if (token.kind !== 'ident' || KEYWORDS.has(token.text))
      throw new FilterSyntaxError('expected a field name', token.at);
    if (this.peek()?.kind === '(')
      throw new FilterSyntaxError(`function ${token.text}() is not supported`, token.at);
    return token.text;
  }

  private list(): Literal[] {
    this.expect('(');
    const values = [this.literal()];
    while (this.peek()?.kind === ',') {
      this.at++;
      values.push(this.literal());
    }
    this.expect(')');
    return values;
  }

  private literal(): Literal {
    const token = this.next('a value');
    switch (token.kind) {
      case 'string':
        return { kind: 'string', value: token.value };
      case 'number':
        return { kind: 'number', value: token.value };
      case 'datetime':
        return { kind: 'datetime', value: token.value, text: token.text };
      case 'date':
        return { kind: 'date', value: token.text };
      case 'ident':
        if (token.text === 'true' || token.text === 'false')
          return { kind: 'boolean', value: token.text === 'true' };
        if (token.text === 'null') return { kind: 'null' };
        throw new FilterSyntaxError(`expected a value, got ${token.text} (strings are quoted)`, token.at);
      default:
        throw new FilterSyntaxError('expected a value', token.at);
    }
  }

  private keyword(word: string): boolean {
    const token = this.peek();
    if (token?.kind === 'ident' && token.text === word) {
      this.at++;
      return true;
    }
    return false;
  }

  private expect(kind: '(' | ')'): void {
    const token = this.next(`"${kind}"`);
    if (token.kind !== kind) throw new FilterSyntaxError(`expected "${kind}"`, token.at);
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private next(what: string): Token {
    const token = this.tokens[this.at++];
    if (!token) throw new FilterSyntaxError(`expected ${what}, got the end`, this.length);
    return token;
  }

  end(): void {
    const token = this.peek();
    if (token) throw new FilterSyntaxError('unexpected text after the end of the expression', token.at);
  }
}
