import type { FieldCompile } from './field-compile.ts';
import { isSet } from './field-path.ts';
import { htmlToText } from './html-text.ts';
import type { FieldWriter } from './mapped-record.ts';
import { absoluteMediaUrl } from './media-url.ts';
import { currencyOf, priceSign } from './money.ts';

/** Text, trimmed: a currency symbol (`currency`), an absolute URL (`url`), HTML as text (`html`), or as is. */
export function compileText(
  kind: 'string' | 'url' | 'currency',
  { field, rule, ctx, set, read }: FieldCompile,
): FieldWriter {
  // Feeds repeat one or two currencies: each distinct text is read once (bounded, feed-controlled).
  const currencies = new Map<string, string | undefined>();
  const currency = (text: string) => {
    if (currencies.has(text)) return currencies.get(text);
    // A price text `currencyOf` cannot read whole (`£450,000 Guide Price`) still says its sign.
    const found = currencyOf(text) ?? priceSign(text);
    if (currencies.size < 1000) currencies.set(text, found);
    return found;
  };
  return (record, out) => {
    const value = read(record);
    if (!isSet(value)) return;
    if (out.raw) out.raw[field] = value;
    const text = String(value).trim();
    // A price text that names no currency (`POA`, a bare number): the feed's default, if any.
    if (kind === 'currency')
      set(
        out.listing,
        currency(text) ?? (ctx.fallback === undefined ? undefined : currency(String(ctx.fallback))),
      );
    else if (kind === 'url') set(out.listing, absoluteMediaUrl(text, ctx.baseUrl) ?? text);
    else if (rule.html) set(out.listing, htmlToText(text) || undefined);
    else set(out.listing, text);
  };
}
