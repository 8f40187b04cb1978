import { RETURNED_FIELDS } from '../api/index.ts';
import { type Listing, MARKER_FIELDS, type MarkerField, UNKNOWN } from '../normalize/index.ts';

/**
 * What an update leaves out of the feed's record: the unknown marker 0 in a field the feed never
 * sets (`MARKER_FIELDS`: YearBuilt, ParkingSpots, DaysOnMarket…, required on create, filled with 0
 * because the format does not carry them). Sent, it overwrote a value an office typed into the
 * listing on every update. A marker field the feed sets on some listing (`Plan.clearable`: under
 * `unsetFields: keep` too) keeps its 0: there the 0 clears a value the feed stopped sending, or is the
 * feed's own (a studio's 0 bedrooms). Pure: text and objects in, text and objects out.
 */

/** The marker fields whose 0 an update leaves out: those not in `clearable` (none when it is absent). */
export function unknownLeftOut(clearable: number | undefined): readonly MarkerField[] {
  if (clearable === undefined) return [];
  return MARKER_FIELDS.filter((field) => (clearable & (1 << RETURNED_FIELDS.indexOf(field))) === 0);
}

/** `listing` without the fields of `fields` that hold the unknown marker (the same object when none does). */
export function withoutUnknown(listing: Listing, fields: readonly MarkerField[]): Listing {
  let out: Record<string, unknown> | undefined;
  for (const field of fields) {
    if (listing[field] !== UNKNOWN) continue;
    out ??= { ...listing };
    delete out[field];
  }
  return (out as Listing | undefined) ?? listing;
}

const COMMA = 44;
const BRACE = 125;

/**
 * `withoutUnknown` on the record's JSON text, as the run's store keeps it (`JSON.stringify`: no white
 * space): each `"Field":0` member cut with its comma. Only the listing's own members can match: the
 * other objects in it (ExtensionColumn's entries) have no member named as a listing field, and a
 * quote inside a string is escaped.
 */
export function withoutUnknownJson(json: string, fields: readonly MarkerField[]): string {
  let out = json;
  for (const field of fields) {
    const member = `"${field}":0`;
    let at = out.indexOf(member);
    while (at >= 0) {
      const end = at + member.length;
      const next = out.charCodeAt(end);
      if (next === COMMA || next === BRACE) {
        if (out.charCodeAt(at - 1) === COMMA) out = out.slice(0, at - 1) + out.slice(end);
        else if (next === COMMA) out = out.slice(0, at) + out.slice(end + 1);
        else out = out.slice(0, at) + out.slice(end);
        break;
      }
      // `"YearBuilt":0.5`, `"YearBuilt":01`: not the marker.
      at = out.indexOf(member, end);
    }
  }
  return out;
}
