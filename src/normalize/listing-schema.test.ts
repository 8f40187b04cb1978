import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENUM_FIELDS, LISTING_FIELDS, listingSchema, MONEY_FIELDS, TEXT_FIELDS } from './listing-schema.ts';

const shape = listingSchema.shape as Record<string, z.ZodType>;
const inner = (field: string) => {
  const schema = shape[field]!;
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
};

/** The field classes are declared beside the schema and checked against it: a new field lands in its class. */
describe('field classes beside the listing schema', () => {
  it('money: exactly the fields sharing the price schema', () => {
    const price = inner('SalePrice');
    expect(LISTING_FIELDS.filter((f) => inner(f) === price).sort()).toEqual([...MONEY_FIELDS].sort());
  });

  it('enum: exactly the fields with a fixed set of values (AreaUnit is never returned)', () => {
    const enums = LISTING_FIELDS.filter((f) => f !== 'AreaUnit' && inner(f) instanceof z.ZodEnum);
    expect(enums.sort()).toEqual([...ENUM_FIELDS].sort());
  });

  it('text: every plain string field and the URL (Location is never returned)', () => {
    const strings = LISTING_FIELDS.filter(
      (f) => f !== 'Location' && (inner(f) instanceof z.ZodString || inner(f) instanceof z.ZodURL),
    );
    expect(strings.sort()).toEqual([...TEXT_FIELDS].sort());
  });
});
