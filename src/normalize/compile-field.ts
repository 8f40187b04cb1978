import { convertArea, listingUnit, normalizeAreaUnit } from './area-units.ts';
import { compileImages } from './compile-images.ts';
import { compileSource, ruleObject } from './compile-rule.ts';
import { isUnderContract, REMOVE, STATUS_NOTE } from './enum-maps.ts';
import { compileFirst, isSet, type RawFields } from './field-path.ts';
import { problem } from './field-problem.ts';
import { htmlToText } from './html-text.ts';
import type { ListingField } from './listing-schema.ts';
import { propertyReader, propertyWriter } from './literal-access.ts';
import type { FieldContext, FieldWriter, MappedRecord } from './mapped-record.ts';
import type { FieldRuleObject } from './mapping-schema.ts';
import { absoluteMediaUrl } from './media-url.ts';
import { currencyOf, perMonthFactor } from './money.ts';
import { normalizeToken } from './normalize-token.ts';
import { isUnsetText, numberValue, parseNumber } from './parse-number.ts';
import { daysSince } from './parse-timestamp.ts';

export type { FieldContext, FieldWriter, MappedRecord } from './mapped-record.ts';

export type FieldKind =
  | 'string'
  | 'url'
  | 'number'
  | 'area'
  | 'money'
  | 'bathrooms'
  | 'enum'
  | 'currency'
  | 'images';

/** Compile one field's rule into a writer. Returns the paths it reads too. */
export function compileField(
  field: ListingField,
  kind: FieldKind,
  rawRule: string | FieldRuleObject,
  ctx: FieldContext,
): { write: FieldWriter; paths: string[] } {
  const rule = ruleObject(rawRule);
  // `out.listing[field]` with the field as a literal: one inline cache per field (literal-access.ts).
  const set = propertyWriter(field);
  const get = propertyReader(field);
  const writeNumber = (value: unknown, out: MappedRecord, scale = 1) =>
    writeNumberTo(set, field, value, ctx, out, scale);
  const source = compileSource(rule, kind === 'url', kind !== 'enum');
  const paths = [...source.paths];
  const read = (record: RawFields): unknown => {
    const value = source.read(record);
    // "N/A" and friends are as good as absent, so the per-feed default applies to them too.
    return isSet(value) && !(typeof value === 'string' && isUnsetText(value)) ? value : ctx.fallback;
  };
  const extra = (path: string | undefined) => {
    if (path === undefined) return undefined;
    paths.push(path);
    return compileFirst(path);
  };

  if (kind === 'images') return { write: compileImages(field, rule, ctx, paths), paths };
  if (kind === 'bathrooms') {
    // The first `from` path is the total; the counts come next; further `from` paths (an integer total) last.
    const from = rule.from === undefined ? [] : typeof rule.from === 'string' ? [rule.from] : rule.from;
    const primary =
      from[0] === undefined ? () => undefined : compileSource({ ...rule, from: from[0] }, false, true).read;
    const rest =
      from.length > 1 ? compileSource({ ...rule, from: from.slice(1) }, false, true).read : () => undefined;
    const parts = [
      extra(rule.full),
      extra(rule.half),
      extra(rule.threeQuarter),
      extra(rule.quarter),
    ] as const;
    const weights = [1, 0.5, 0.75, 0.25];
    return {
      paths,
      write(record, out) {
        const total = primary(record);
        if (isSet(total)) return writeNumber(total, out, rule.scale);
        let sum: number | undefined;
        for (let i = 0; i < parts.length; i++) {
          const value = parts[i]?.(record);
          if (value === undefined) continue;
          const parsed = numberValue(value, ctx.decimalComma);
          if (Number.isNaN(parsed))
            return void out.problems.push(problem(field, value, 'not_a_number', 'is not a number'));
          if (parsed !== undefined) sum = (sum ?? 0) + parsed * weights[i]!;
        }
        if (sum !== undefined) {
          set(out.listing, sum);
          return;
        }
        const fallback = isSet(rest(record)) ? rest(record) : ctx.fallback;
        if (isSet(fallback)) writeNumber(fallback, out, rule.scale);
      },
    };
  }
  if (kind === 'area') {
    const unitOf = extra(rule.unitFrom);
    const target = listingUnit(ctx.areaUnit);
    return {
      paths,
      write(record, out) {
        const value = read(record);
        if (!isSet(value)) return;
        if (out.raw) out.raw[field] = value;
        const parsed = parseNumber(value, ctx.decimalComma);
        if (!parsed.ok)
          return void out.problems.push(problem(field, value, 'not_a_number', 'is not a number'));
        if (parsed.value === undefined) return;
        const unitText = (unitOf?.(record) as string | undefined) ?? (parsed.suffix || rule.unit);
        const unit = unitText ? normalizeAreaUnit(String(unitText)) : target;
        if (!unit)
          return void out.problems.push(
            problem(field, value, 'unknown_unit', `has an unknown unit "${unitText}"`),
          );
        set(out.listing, convertArea(parsed.value * (rule.scale ?? 1), unit, target));
      },
    };
  }
  if (rule.daysSince !== undefined && (kind === 'money' || kind === 'number')) {
    const { now } = ctx;
    if (now === undefined) throw new Error(`${field}: a daysSince rule needs the run's clock`);
    const dateOf = extra(rule.daysSince)!;
    return {
      paths,
      write(record, out) {
        const value = dateOf(record);
        if (!isSet(value) || (typeof value === 'string' && isUnsetText(value))) {
          if (isSet(ctx.fallback)) writeNumber(ctx.fallback, out);
          return;
        }
        if (out.raw) out.raw[field] = value;
        const days = daysSince(value, now, rule.dateOrder);
        if (days === undefined)
          return void out.problems.push(
            problem(
              field,
              value,
              'not_a_date',
              rule.dateOrder
                ? `is not a date (YYYY-MM-DD or ${DATE_FORMS[rule.dateOrder]})`
                : 'is not a date (YYYY-MM-DD; set dateOrder for 05/01/2024)',
            ),
          );
        set(out.listing, days);
      },
    };
  }
  if (kind === 'money' || kind === 'number') {
    const periodOf = extra(rule.periodFrom);
    return {
      paths,
      write(record, out) {
        const value = read(record);
        if (!isSet(value)) return;
        const periodText = (periodOf?.(record) as string | undefined) ?? rule.period;
        let factor = 1;
        if (periodText !== undefined && isSet(periodText)) {
          const found = perMonthFactor(String(periodText));
          if (found === undefined) {
            if (out.raw) out.raw[field] = value;
            return void out.problems.push(
              problem(field, value, 'unknown_period', `has an unknown period "${periodText}"`),
            );
          }
          factor = found;
        }
        writeNumber(value, out, (rule.scale ?? 1) * factor);
        // The platform's RentPrice and HOAMonth are monthly; the period the feed published is kept.
        if (factor !== 1 && get(out.listing) !== undefined) {
          out.notes ??= [];
          out.notes.push({ Key: `${field} period`, value: String(periodText).trim() });
        }
      },
    };
  }
  if (kind === 'enum') {
    // Feeds repeat a handful of values: decide each distinct value once (bounded, values are feed-controlled).
    // With each outcome, whether the value is "under contract" (a Status the note keeps).
    const memo = new Map<unknown, { outcome: EnumOutcome; underContract: boolean }>();
    const decide = (value: unknown) => {
      let decided = memo.get(value);
      if (decided !== undefined) return decided;
      const outcome = enumOutcome(field, String(value).trim(), ctx);
      decided = { outcome, underContract: field === 'Status' && isUnderContract(String(value)) };
      if (memo.size < 1000) memo.set(value, decided);
      return decided;
    };
    return {
      paths,
      write(record, out) {
        const value = read(record);
        if (!isSet(value)) return;
        if (out.raw) out.raw[field] = value;
        const { outcome, underContract } = decide(value);
        if (outcome === REMOVE_OUTCOME) out.remove = true;
        else if (outcome === UNKNOWN_STATUS)
          out.problems.push(problem(field, value, 'unknown_status', 'is not a known status'));
        // A map to "" means "no value here": the next alternative (or the unknown policy) decides.
        else if (outcome !== '') {
          set(out.listing, outcome);
          // The platform has no "under contract": the listing stays Active, the feed's word is kept.
          if (underContract) {
            out.notes ??= [];
            out.notes.push({ Key: STATUS_NOTE, value: String(value).trim() });
          }
        }
      },
    };
  }
  // Feeds repeat one or two currencies: each distinct text is read once (bounded, feed-controlled).
  const currencies = new Map<string, string | undefined>();
  const currency = (text: string) => {
    if (currencies.has(text)) return currencies.get(text);
    const found = currencyOf(text);
    if (currencies.size < 1000) currencies.set(text, found);
    return found;
  };
  return {
    paths,
    write(record, out) {
      const value = read(record);
      if (!isSet(value)) return;
      if (out.raw) out.raw[field] = value;
      const text = String(value).trim();
      if (kind === 'currency') set(out.listing, currency(text));
      else if (kind === 'url') set(out.listing, absoluteMediaUrl(text, ctx.baseUrl) ?? text);
      else if (rule.html) set(out.listing, htmlToText(text) || undefined);
      else set(out.listing, text);
    },
  };
}

const DATE_FORMS = { mdy: 'MM/DD/YYYY', dmy: 'DD/MM/YYYY' } as const;

const REMOVE_OUTCOME: unique symbol = Symbol('remove');
const UNKNOWN_STATUS: unique symbol = Symbol('unknown status');
/** The listing value of an enum text, or what else it means. */
type EnumOutcome = string | typeof REMOVE_OUTCOME | typeof UNKNOWN_STATUS;

function enumOutcome(field: ListingField, text: string, ctx: FieldContext): EnumOutcome {
  if (field === 'Status' && ctx.underContract === 'remove' && isUnderContract(text)) return REMOVE_OUTCOME;
  const mapped = ctx.enumMap?.get(normalizeToken(text)) ?? ctx.enumMap?.get('*');
  if (field === 'Status' && mapped === REMOVE) return REMOVE_OUTCOME;
  if (mapped !== undefined) return mapped;
  if (!ctx.enumValues || ctx.enumValues.includes(text)) return text;
  return field === 'Status' ? UNKNOWN_STATUS : text;
}

function writeNumberTo(
  set: (listing: Record<string, unknown>, value: unknown) => void,
  field: string,
  value: unknown,
  ctx: FieldContext,
  out: MappedRecord,
  scale: number,
): void {
  if (out.raw) out.raw[field] = value;
  const parsed = numberValue(value, ctx.decimalComma);
  if (Number.isNaN(parsed))
    return void out.problems.push(problem(field, value, 'not_a_number', 'is not a number'));
  if (parsed === undefined) return;
  set(out.listing, scale === 1 ? parsed : Math.round(parsed * scale * 100) / 100);
}
