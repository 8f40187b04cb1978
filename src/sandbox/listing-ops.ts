import { fail, ok } from './envelope.ts';
import { describeIssues } from './issues.ts';
import {
  createSchema,
  deleteSchema,
  LISTING_FIELDS,
  strictUpdateSchema,
  updateSchema,
} from './request-schemas.ts';
import { envelopeReply, type Handler } from './state.ts';

const LISTING_KEYS = new Set<string>(LISTING_FIELDS);

/** Create (4.3): validate, store with the next ID, answer the ID as a string. Duplicate MLSNumbers are allowed. */
export const create: Handler = (body, state) => {
  const parsed = createSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const { SerialNumber, ...listing } = parsed.data;
  return envelopeReply(ok(String(state.listings.add(SerialNumber, listing).ID)));
};

/** Update (4.4): Data is the number of records updated; none matching is still a success with 0. */
export const update: Handler = (body, state) => {
  const schema = state.settings.updateRequiresAll ? strictUpdateSchema : updateSchema;
  const parsed = schema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const { SerialNumber, Key, KeyType, ...rest } = parsed.data;
  const patch = Object.fromEntries(Object.entries(rest).filter(([field]) => LISTING_KEYS.has(field)));
  return envelopeReply(ok(state.listings.update(SerialNumber, KeyType, Key, patch)));
};

/** Delete (4.6): SuccessCount is the number of records deleted (a duplicated MLSNumber deletes them all). */
export const remove: Handler = (body, state) => {
  const parsed = deleteSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return envelopeReply(fail(400, describeIssues(parsed.error)));
  const { SerialNumber, KeyType, Keys } = parsed.data;
  return envelopeReply(ok({ SuccessCount: state.listings.remove(SerialNumber, KeyType, Keys) }));
};
