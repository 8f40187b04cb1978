import { isUnderContract, REMOVE, STATUS_NOTE } from './enum-maps.ts';
import type { FieldCompile } from './field-compile.ts';
import { isSet } from './field-path.ts';
import { problem } from './field-problem.ts';
import { type ListingField, STATUSES } from './listing-schema.ts';
import type { FieldContext, FieldWriter } from './mapped-record.ts';
import { normalizeToken } from './normalize-token.ts';

const REMOVE_OUTCOME: unique symbol = Symbol('remove');
const UNKNOWN_STATUS: unique symbol = Symbol('unknown status');
/** What else an unknown status may be mapped to, beside Active, for its problem's message. */
const OTHER_STATUSES = [...STATUSES.filter((s) => s !== 'Active'), 'remove'].join(', ');
/** The listing value of an enum text, or what else it means. */
type EnumOutcome = string | typeof REMOVE_OUTCOME | typeof UNKNOWN_STATUS;

/** An enum (SaleType, Status, Tours, SpaceType) through its map: a value, "remove", or an unknown Status. */
export function compileEnum({ field, ctx, set, read }: FieldCompile): FieldWriter {
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
  return (record, out) => {
    const value = read(record);
    if (!isSet(value)) return;
    if (out.raw) out.raw[field] = value;
    const { outcome, underContract } = decide(value);
    if (outcome === REMOVE_OUTCOME) out.remove = true;
    else if (outcome === UNKNOWN_STATUS)
      out.problems.push(
        problem(
          field,
          value,
          'unknown_status',
          // Said with the map that reads it: `Aktiv`, `Auction` are a feed's own words.
          `is not a known status: map it in the feed's mapping, \`maps: { Status: { ${JSON.stringify(String(value).trim())}: Active } }\` (or ${OTHER_STATUSES})`,
        ),
      );
    // A map to "" means "no value here": the next alternative (or the unknown policy) decides.
    else if (outcome !== '') {
      set(out.listing, outcome);
      // The platform has no "under contract": the listing stays Active, the feed's word is kept.
      if (underContract) {
        out.notes ??= [];
        out.notes.push({ Key: STATUS_NOTE, value: String(value).trim() });
      }
    }
  };
}

function enumOutcome(field: ListingField, text: string, ctx: FieldContext): EnumOutcome {
  if (field === 'Status' && ctx.underContract === 'remove' && isUnderContract(text)) return REMOVE_OUTCOME;
  const mapped = ctx.enumMap?.get(normalizeToken(text)) ?? ctx.enumMap?.get('*');
  if (field === 'Status' && mapped === REMOVE) return REMOVE_OUTCOME;
  if (mapped !== undefined) return mapped;
  if (!ctx.enumValues || ctx.enumValues.includes(text)) return text;
  return field === 'Status' ? UNKNOWN_STATUS : text;
}
