import { compileCondition } from './compile-rule.ts';
import { formatDate, formatDateTime, formatInspection, formatOpenHouse, parseDate } from './fact-dates.ts';
import { compilePath, type PathReader, type RawFields, scalarOf } from './field-path.ts';
import { htmlToText } from './html-text.ts';
import type { FactRule } from './mapping-schema.ts';
import { currencySymbol } from './money.ts';
import { normalizeMap, normalizeToken } from './normalize-token.ts';
import {
  ambiguousDotMessage,
  type DecimalComma,
  isAmbiguousDot,
  numberValue,
  parseNumber,
} from './parse-number.ts';

/** A fact's value stays readable: a longer text is cut (the whole record is `extensions.unmapped`'s job). */
const MAX_FACT_CHARS = 1000;

/** Words a feed uses for yes and no (`true`, `Y`, `1`, German `ja`, Spanish `sí`, French `oui`). */
const YES = new Set(['true', 'yes', 'y', '1', 'ja', 'j', 'si', 'sí', 'oui']);
const NO = new Set(['false', 'no', 'n', '0', 'nein', 'non']);

/** `yes`, `no`, or undefined when the text is neither. */
export function yesNo(value: unknown): 'yes' | 'no' | undefined {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === 1 || value === 0) return value === 1 ? 'yes' : 'no';
  if (typeof value !== 'string') return undefined;
  const token = value.trim().toLowerCase();
  return YES.has(token) ? 'yes' : NO.has(token) ? 'no' : undefined;
}

/** An element's text, or the whole object when it has only children (a multilingual element: one language). */
export function extensionValue(value: unknown): unknown {
  const scalar = scalarOf(value);
  if (scalar !== undefined || value === null || typeof value !== 'object') return scalar;
  return inOneLanguage(value as Record<string, unknown>) ?? value;
}

/**
 * `<feature><en>Sea view</en><es>Vistas al mar</es></feature>` (Kyero and other multilingual feeds):
 * the English text, else the first language's; undefined when the element is not such a list.
 */
function inOneLanguage(element: Record<string, unknown>): unknown {
  const keys = Object.keys(element);
  if (keys.length === 0 || !keys.every((key) => /^[a-z]{2}(?:[-_][A-Za-z]{2})?$/.test(key))) return undefined;
  const texts = keys.map((key) => scalarOf(element[key]));
  if (!texts.every((text) => typeof text === 'string')) return undefined;
  return keys.includes('en') ? scalarOf(element.en) : texts[0];
}

/** The texts at a path: scalars and one-language elements; elements with only children are not texts. */
function textsAt(reader: PathReader, record: RawFields): string[] {
  const out: string[] = [];
  for (const value of reader(record)) {
    const scalar = extensionValue(value);
    if (scalar === undefined || scalar === null || typeof scalar === 'object') continue;
    const text = String(scalar).trim();
    if (text !== '') out.push(text);
  }
  return out;
}

let regionNames: Intl.DisplayNames | undefined;
/** `ES` → `Spain`; anything else (`AUS`, `Australia`) as written. */
function countryName(code: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  try {
    regionNames ??= new Intl.DisplayNames('en', { type: 'region' });
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/**
 * A number a fact could not read because its feed does not say how it writes decimals (`2.210` is
 * 2210 or 2.21 under an unsaid `mapping.decimalComma`): the fact leaves it out, and the run says so.
 */
export interface FactProblem {
  /** The path the value came from (`preise.warmmiete`). */
  path: string;
  value: string;
  /** `preise.warmmiete "2.210" is 2210 or 2.210: say which with …` */
  message: string;
}

/** How a fact reads numbers: as the mapping's fields do. */
export interface FactOptions {
  /** The mapping's `decimalComma`, else `'unsaid'` (as the fields read it). Default false. */
  decimalComma?: DecimalComma;
}

/** Where the values of one `from` entry came from, for a problem's message. */
interface Group {
  texts: string[];
  path: string;
}

/** What reading one record's fact needs besides the rule: the number format, where to say a problem. */
interface ReadContext {
  decimalComma: DecimalComma;
  report: ((problem: FactProblem) => void) | undefined;
}

/**
 * A number text as the mapping's fields read it: the value; undefined when it is an unset marker;
 * `refused` (said to `report`) when only `mapping.decimalComma` could say which number it is; NaN for
 * text that is no number (kept as written by the caller).
 */
function readNumber(text: string, path: string, ctx: ReadContext): number | undefined | 'refused' {
  const parsed = parseNumber(text, ctx.decimalComma);
  if (parsed.ok) return parsed.value;
  if (!isAmbiguousDot(text, ctx.decimalComma)) return Number.NaN;
  ctx.report?.({
    path,
    value: text,
    message: `${path} ${JSON.stringify(text)} ${ambiguousDotMessage(text)}`,
  });
  return 'refused';
}

/** `1,234.5` for a number text, else the text. */
function rangeBound(text: string, decimalComma: DecimalComma): string {
  const n = numberValue(text, decimalComma);
  return n === undefined || Number.isNaN(n) ? text : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** `1.500`, `2.465.000`: dots before groups of three digits, thousands or decimals as the feed says. */
const DOT_GROUPS = /^-?\d{1,3}(?:\.\d{3})+$/;

/** One value as the rule reads it (`as`), for the formats that read one value at a time. */
function formatOne(text: string, as: FactRule['as'], path: string, ctx: ReadContext): string | undefined {
  switch (as) {
    case 'yesno':
      return yesNo(text) ?? text;
    case 'html':
      return htmlToText(text) || undefined;
    case 'date': {
      const parsed = parseDate(text);
      return parsed ? formatDate(parsed.date) : text;
    }
    case 'dateTime': {
      const parsed = parseDate(text);
      return parsed ? formatDateTime(parsed.date, parsed.time) : text;
    }
    case 'inspection':
      return formatInspection(text) ?? text;
    case 'country':
      return countryName(text);
    case 'number': {
      // `4.50` → 4.5; a comma before one or two digits is a decimal comma (German, Spanish exports:
      // `4,5` rooms), never a thousands separator, which groups three. `1.500` is read as the
      // mapping's `decimalComma` says, and left out (said) where it does not say.
      if (DOT_GROUPS.test(text)) {
        const n = readNumber(text, path, ctx);
        return n === 'refused' ? undefined : n === undefined || Number.isNaN(n) ? text : String(n);
      }
      if (/^-?\d+\.\d+$/.test(text)) return String(Number(text));
      return /^-?\d+,\d{1,2}$/.test(text) ? String(Number(text.replace(',', '.'))) : text;
    }
    default:
      return text;
  }
}

const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * A `from` entry: a path, or a little template of paths (`{FirstName} {LastName}`,
 * `{Name} ({SchoolCategory})`) whose missing parts are left out, giving one text per item.
 */
function readerOf(entry: string): PathReader {
  if (!entry.includes('{')) return compilePath(entry);
  const parts: (string | PathReader)[] = [];
  let last = 0;
  for (const match of entry.matchAll(PLACEHOLDER)) {
    parts.push(entry.slice(last, match.index), compilePath(match[1]!.trim()));
    last = match.index + match[0].length;
  }
  parts.push(entry.slice(last));
  return (record) => {
    let text = '';
    let any = false;
    for (const part of parts) {
      if (typeof part === 'string') {
        text += part;
        continue;
      }
      const [value] = textsAt(part, record);
      if (value !== undefined) any = true;
      text += value ?? '';
    }
    if (!any) return [];
    const cleaned = text
      .replace(/\(\s*\)/g, '')
      .replace(/\s+/g, ' ')
      .replace(/^[\s:,;–-]+|[\s:,;–-]+$/g, '');
    return cleaned === '' ? [] : [cleaned];
  };
}

/** Paths of a fact rule, for `extensions.unmapped` to leave out. */
export function factPaths(rule: FactRule): string[] {
  const from = (
    rule.from === undefined ? [] : typeof rule.from === 'string' ? [rule.from] : rule.from.flat()
  ).flatMap((entry) =>
    entry.includes('{') ? [...entry.matchAll(PLACEHOLDER)].map((m) => m[1]!.trim()) : [entry],
  );
  const inner = [...from, ...Object.keys(rule.yes ?? {}), ...Object.keys(rule.count ?? {})];
  const when =
    rule.when === undefined ? [] : (Array.isArray(rule.when) ? rule.when : [rule.when]).map((c) => c.path);
  return rule.each === undefined ? [...inner, ...when] : [rule.each, ...when];
}

/**
 * Compile a fact rule (mapping-schema.ts `factRuleSchema`) into `(record) => text | undefined`.
 * Values come in rule order (`from`, then `count`s, then `yes` labels), each in feed order,
 * de-duplicated: the same record always gives the same text, so a second sync writes nothing.
 */
export function compileFact(
  rule: FactRule,
  options: FactOptions = {},
): (record: RawFields, report?: (problem: FactProblem) => void) => string | undefined {
  const decimalComma = options.decimalComma ?? false;
  const from = (rule.from === undefined ? [] : typeof rule.from === 'string' ? [rule.from] : rule.from).map(
    (entry) =>
      (typeof entry === 'string' ? [entry] : entry).map((path) => ({ path, reader: readerOf(path) })),
  );
  const flags = Object.entries(rule.yes ?? {}).map(([path, label]) => [compilePath(path), label] as const);
  const counts = Object.entries(rule.count ?? {}).map(([path, label]) => {
    const [one, many = one] = label.split('|');
    return [compilePath(path), one!, many] as const;
  });
  const map = rule.map ? normalizeMap(rule.map) : undefined;
  const words = (text: string): string | undefined => {
    if (!map) return text;
    const mapped = map.get(normalizeToken(text)) ?? map.get('*');
    return mapped === undefined ? text : mapped === '' ? undefined : mapped;
  };
  const as = rule.as ?? 'text';
  const join = rule.join ?? ', ';

  /** The text of one item (or of the record, without `each`). */
  const itemText = (item: RawFields, ctx: ReadContext): string | undefined => {
    const values: string[] = [];
    const add = (text: string | undefined) => {
      if (text === undefined || text === '') return;
      if (!values.some((v) => v.toLowerCase() === text.toLowerCase())) values.push(text);
    };
    // Each `from` entry: its texts, or the first set path's texts for a nested list.
    const groups: Group[] = from.map((readers) => {
      for (const { path, reader } of readers) {
        const texts = textsAt(reader, item);
        if (texts.length > 0) return { texts, path };
      }
      return { texts: [], path: readers[0]!.path };
    });
    if (as === 'openHouse') {
      add(openHouse(groups.map((g) => g.texts)));
    } else if (as === 'range') {
      add(
        range(
          groups.map((g) => g.texts),
          words,
          decimalComma,
        ),
      );
    } else if (as === 'money') {
      const amount = money(groups, ctx);
      // Words where an amount belongs (`nach Vereinbarung`) are the feed's: kept, without ` a month`.
      if (amount?.words) return amount.text;
      add(amount?.text);
    } else {
      for (const { texts, path } of groups)
        for (const text of texts)
          for (const part of rule.split === undefined ? [text] : text.split(rule.split)) {
            const trimmed = part.trim();
            if (trimmed === '') continue;
            const mapped = words(trimmed);
            if (mapped !== undefined) add(formatOne(mapped, as, path, ctx));
          }
    }
    let sawNo = false;
    for (const [reader, one, many] of counts) {
      const [text] = textsAt(reader, item);
      const n = text === undefined ? undefined : numberValue(text, decimalComma);
      if (n !== undefined && n > 0) add(`${n} ${n === 1 ? one : many}`);
      else if (n === 0) sawNo = true;
    }
    for (const [reader, label] of flags) {
      for (const text of textsAt(reader, item)) {
        const answer = yesNo(text);
        if (answer === 'yes') add(label);
        else if (answer === 'no') sawNo = true;
      }
    }
    if (values.length === 0) return sawNo ? rule.no : undefined;
    return `${rule.prefix ?? ''}${values.join(join)}${rule.suffix ?? ''}`;
  };

  const itemTests = (
    rule.itemWhen === undefined ? [] : Array.isArray(rule.itemWhen) ? rule.itemWhen : [rule.itemWhen]
  ).map(compileCondition);
  const items = rule.each === undefined ? undefined : compilePath(rule.each);
  const whole = (record: RawFields, ctx: ReadContext): string | undefined => {
    if (!items) return itemText(record, ctx);
    const texts: string[] = [];
    for (const item of items(record)) {
      const fields: RawFields =
        item !== null && typeof item === 'object' ? (item as RawFields) : { '#text': item };
      if (!itemTests.every((test) => test(fields))) continue;
      const text = itemText(fields, ctx);
      if (text !== undefined && !texts.includes(text)) texts.push(text);
    }
    return texts.length > 0 ? texts.join('; ') : undefined;
  };
  const tests = (rule.when === undefined ? [] : Array.isArray(rule.when) ? rule.when : [rule.when]).map(
    compileCondition,
  );
  return (record, report) => {
    if (!tests.every((test) => test(record))) return undefined;
    const text = whole(record, { decimalComma, report });
    return text === undefined || text.length <= MAX_FACT_CHARS
      ? text
      : `${text.slice(0, MAX_FACT_CHARS - 1)}…`;
  };
}

/** `from: [date, start, end]` as `Sat 12 Apr 10:00–10:30`; the feed's words when they cannot be read. */
function openHouse(groups: string[][]): string | undefined {
  const [date, start, end] = groups.map((texts) => texts[0]);
  if (date === undefined && start === undefined) return undefined;
  return formatOpenHouse(date, start, end) ?? [date, start, end].filter((t) => t !== undefined).join(' ');
}

/** `from: [min, max, unit]` as `880–990 m²` (the unit through `map`). */
function range(
  groups: string[][],
  words: (text: string) => string | undefined,
  decimalComma: DecimalComma,
): string | undefined {
  const [min, max, unit] = groups.map((texts) => texts[0]);
  if (min === undefined && max === undefined) return undefined;
  const bound = (text: string) => rangeBound(text, decimalComma);
  const bounds =
    min !== undefined && max !== undefined
      ? `${bound(min)}–${bound(max)}`
      : min !== undefined
        ? `from ${bound(min)}`
        : `up to ${bound(max!)}`;
  const unitWords = unit === undefined ? undefined : words(unit);
  return unitWords ? `${bounds} ${unitWords}` : bounds;
}

/**
 * `from: [amount, currency]` as `€2,210` (the currency a code or a symbol; none: the amount alone).
 * The amount is read as the mapping's fields read a price: `1.850,00` is 1850 in any feed, `2.210`
 * is 2210 under `decimalComma: true`, 2.21 under `false`, and left out (said) where the mapping does
 * not say, never quoted 1000× off. Words (`nach Vereinbarung`) are kept as written (`words`).
 */
function money(groups: Group[], ctx: ReadContext): { text: string; words?: true } | undefined {
  const [amount, currency] = groups;
  const text = amount?.texts[0];
  if (amount === undefined || text === undefined) return undefined;
  const value = readNumber(text, amount.path, ctx);
  if (value === 'refused' || value === undefined) return undefined;
  if (Number.isNaN(value)) return { text, words: true };
  const digits = value.toLocaleString('en-US', {
    minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
    maximumFractionDigits: 2,
  });
  const code = currency?.texts[0];
  const symbol = code === undefined ? '' : currencySymbol(code);
  return { text: `${symbol}${/[A-Za-z]$/.test(symbol) ? ' ' : ''}${digits}` };
}
