import { compileCondition } from './compile-rule.ts';
import { compilePath, firstScalar, isSet, type RawFields, scalarOf } from './field-path.ts';
import { propertyWriter } from './literal-access.ts';
import type { FieldContext, FieldWriter } from './mapped-record.ts';
import type { FieldRuleObject } from './mapping-schema.ts';
import { absoluteMediaUrl } from './media-url.ts';

/** Images from repeated elements, delimited strings or RESO `Media` objects (ordered by `order`). */
export function compileImages(
  field: string,
  rule: FieldRuleObject,
  ctx: FieldContext,
  paths: string[],
): FieldWriter {
  const from = rule.from === undefined ? [] : typeof rule.from === 'string' ? [rule.from] : rule.from;
  paths.push(...from);
  const set = propertyWriter(field);
  const readers = from.map(compilePath);
  const urlOf = rule.url ? compilePath(rule.url) : undefined;
  const orderOf = rule.order ? compilePath(rule.order) : undefined;
  const separators =
    rule.split === undefined ? [] : typeof rule.split === 'string' ? [rule.split] : rule.split;
  const itemTests = (Array.isArray(rule.itemWhen) ? rule.itemWhen : rule.itemWhen ? [rule.itemWhen] : []).map(
    compileCondition,
  );
  const keep = (item: unknown) =>
    itemTests.length === 0 ||
    (item !== null && typeof item === 'object' && itemTests.every((test) => test(item as RawFields)));
  const resolve = (url: string, absolute: string[], out: Parameters<FieldWriter>[1]) => {
    const resolved = absoluteMediaUrl(url, ctx.baseUrl);
    if (resolved !== undefined) absolute.push(resolved);
    else {
      out.droppedImages ??= [];
      out.droppedImages.push(url);
    }
  };
  return (record, out) => {
    // Ordered items only when an order key is configured; otherwise plain URLs in feed order,
    // resolved as they are read.
    const items: { url: string; order: number; at: number }[] | undefined = orderOf ? [] : undefined;
    const absolute: string[] = [];
    for (const reader of readers) {
      for (const item of reader(record)) {
        if (!keep(item)) continue;
        const url = urlOf ? firstScalar(urlOf, item as RawFields) : scalarOf(item);
        if (!isSet(url)) continue;
        const order = orderOf ? Number(firstScalar(orderOf, item as RawFields)) : Number.NaN;
        const texts = splitUrls(String(url), separators);
        for (const text of texts) {
          const trimmed = text.trim();
          if (!trimmed) continue;
          if (items)
            items.push({ url: trimmed, order: Number.isNaN(order) ? Infinity : order, at: items.length });
          else resolve(trimmed, absolute, out);
        }
      }
    }
    if (items) {
      items.sort((a, b) => a.order - b.order || a.at - b.at);
      for (const item of items) resolve(item.url, absolute, out);
    }
    if (absolute.length > 0) set(out.listing, distinct(absolute, ctx.maxImages));
  };
}

/**
 * The URLs in one text: split on every separator, and on a comma right before another URL
 * (`https://a/1.jpg,https://a/2.jpg`), which cannot be part of the first one's path in practice.
 */
function splitUrls(text: string, separators: readonly string[]): string[] {
  let parts =
    separators.length === 0 ? [text] : separators.length === 1 ? text.split(separators[0]!) : [text];
  if (separators.length > 1)
    for (const separator of separators) parts = parts.flatMap((part) => part.split(separator));
  // A part without a comma or semicolon (almost every one) is left as it is, without regexps.
  if (!hasCommaOrSemicolon(text)) return parts;
  // A separator of ", " split on " " leaves the comma behind: URLs do not end in one.
  return parts
    .flatMap((part) => part.split(/,(?=\s*(?:https?:)?\/\/)/i))
    .map((part) => part.replace(/[,;]+\s*$/, ''));
}

const hasCommaOrSemicolon = (text: string) => text.includes(',') || text.includes(';');

/** The first `max` distinct values, in order (`values` itself when it already is). */
function distinct(values: string[], max: number): string[] {
  if (values.length === 1 && max >= 1) return values;
  if (values.length === 2 && max >= 2 && values[0] !== values[1]) return values;
  const seen = values.length > 16 ? new Set<string>() : undefined;
  const out: string[] = [];
  for (const value of values) {
    if (seen ? seen.has(value) : out.includes(value)) continue;
    seen?.add(value);
    out.push(value);
    if (out.length >= max) break;
  }
  return out;
}
