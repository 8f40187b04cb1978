import { z } from 'zod';
import { createRequestSchema, deleteRequestSchema } from '../api/schemas.ts';
import { KEY_TYPES, listingSchema } from '../normalize/listing-schema.ts';
import { fail, ok } from './envelope.ts';
import { describeIssues } from './issues.ts';
import { envelopeReply, type Handler } from './state.ts';

/**
 * Update (spec 4.4) marks the listing fields required, yet its own example omits several; the
 * sandbox takes the lenient reading: `SerialNumber`, `Key` and `KeyType` are required, the listing
 * fields present are type- and enum-checked and replace the stored ones, absent ones are kept.
 */
const updateSchema = listingSchema.partial().extend({
  SerialNumber: z.string().min(1),
  Key: z.string().min(1),
  KeyType: z.enum(KEY_TYPES),
});

const LISTING_KEYS = new Set(Object.keys(listingSchema.shape));

/** Create (4.3): validate, store with the next ID, answer the ID as a string. Duplicate MLSNumbers are allowed. */
export const create: Handler = (body, state) => {
  const parsed = createRequestSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const { SerialNumber, ...listing } = parsed.data;
  return envelopeReply(ok(String(state.listings.add(SerialNumber, listing).ID)));
};

/** Update (4.4): Data is the number of records updated; none matching is still a success with 0. */
export const update: Handler = (body, state) => {
  const parsed = updateSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const { SerialNumber, Key, KeyType, ...rest } = parsed.data;
  const patch = Object.fromEntries(Object.entries(rest).filter(([field]) => LISTING_KEYS.has(field)));
  return envelopeReply(ok(state.listings.update(SerialNumber, KeyType, Key, patch)));
};

/** Delete (4.6): SuccessCount is the number of records deleted (a duplicated MLSNumber deletes them all). */
export const remove: Handler = (body, state) => {
  const parsed = deleteRequestSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const { SerialNumber, KeyType, Keys } = parsed.data;
  return envelopeReply(ok({ SuccessCount: state.listings.remove(SerialNumber, KeyType, Keys) }));
};
