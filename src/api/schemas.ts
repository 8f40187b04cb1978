import { z } from 'zod';
import { KEY_TYPES, listingSchema, SALE_TYPES } from '../normalize/index.ts';

/**
 * Schemas of every request and response of the platform API (spec section 4).
 * Responses are read tolerantly: unknown fields pass through (looseObject), and where the spec
 * says a value is a string but a number would mean the same (or the reverse), both are accepted.
 */

/** The common envelope of spec 4.0. `Data` is validated per operation. */
export const envelopeSchema = z.looseObject({
  Data: z.unknown().optional(),
  Version: z.string().optional(),
  Success: z.boolean().optional(),
  Code: z.coerce.number().int().optional(),
  Message: z.string().nullish(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

const serial = z.string().min(1);
/** Accept an integer sent as a JSON number or as a numeric string. */
const intLike = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

// 4.1 Edit chatbot settings. The settings themselves are validated by src/settings before they get here.
export const editRequestSchema = z.looseObject({ serialNumber: serial });
export const editDataSchema = intLike;

// GetSession: referred to but not shown by the spec; the platform's public documentation gives
// `POST /chat/Chatbot/GetSession` with `{serialNumber}` answering `Data.SessionID`.
export const sessionRequestSchema = z.object({ serialNumber: serial });
export const sessionDataSchema = z.union([
  intLike.transform((SessionID) => ({ SessionID })),
  z.looseObject({ SessionID: intLike }),
  z.looseObject({ sessionID: intLike }).transform((d) => ({ ...d, SessionID: d.sessionID })),
]);

// 4.2 Message a chatbot.
export const ASK_TYPES = ['Text', 'Audio', 'Image', 'Video'] as const;
export const askRequestSchema = z.object({
  sessionID: z.number().int(),
  content: z.string(),
  chatAskType: z.enum(ASK_TYPES).nullish(),
  stream: z.boolean().optional(),
  fileIds: z.array(z.number().int()).optional(),
});
export type AskRequest = z.infer<typeof askRequestSchema>;
export const askDataSchema = z.looseObject({
  messageid: intLike.optional(),
  content: z.string(),
  totalToken: intLike.optional(),
  noAnswer: z.boolean().optional(),
});
export type AskAnswer = z.infer<typeof askDataSchema>;

// 4.3 Create. The spec's required fields are enforced by the listing schema.
export const createRequestSchema = listingSchema.extend({ SerialNumber: serial });
export type CreateRequest = z.infer<typeof createRequestSchema>;
export const createDataSchema = z.union([z.string(), z.number()]).transform(String);

// 4.4 Update by key. A sync sends the whole record of the feed (the spec marks the fields required
// here too), already checked by the listing schema; but the spec's own example omits several, so
// the request itself is checked field by field, none required: marking a listing gone from the feed
// Sold sends the fields the list returned, which never include AreaUnit or Location.
export const updateRequestSchema = listingSchema.partial().extend({
  SerialNumber: serial,
  Key: z.string().min(1),
  KeyType: z.enum(KEY_TYPES),
});
export type UpdateRequest = z.infer<typeof updateRequestSchema>;
export const updateDataSchema = intLike;

// 4.5 List one page.
export const listRequestSchema = z.object({
  SerialNumber: serial,
  CityName: z.string().optional(),
  SaleType: z.enum(SALE_TYPES).optional(),
  MLSNumber: z.string().optional(),
  PageNumber: z.number().int().positive().optional(),
  PageSize: z.number().int().positive().optional(),
});
export type ListRequest = z.infer<typeof listRequestSchema>;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** One entry of `Data.List`, as returned (spec 2.4, second table): numbers as strings, quirks and all. */
export const remoteRecordSchema = z.looseObject({
  ID: intLike,
  MLSNumber: scalar.optional(),
  Url: scalar.optional(),
  ExtensionColumn: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
  Images: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
});
export type RemoteRecord = z.infer<typeof remoteRecordSchema>;

const isScalar = (value: unknown) =>
  value === null ||
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'boolean';
const isTextOrList = (value: unknown) =>
  value === undefined || value === null || typeof value === 'string' || Array.isArray(value);

/**
 * `remoteRecordSchema`'s verdict on the usual record (a numeric ID, the rest as the spec shows it),
 * without zod copying every key of every listing of every page: the record as parsed, or undefined
 * when zod must judge it (an ID sent as text, which it turns into a number; anything invalid).
 */
export function quickRemoteRecord(value: unknown): RemoteRecord | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (!Number.isSafeInteger(record.ID)) return undefined;
  const { MLSNumber, Url } = record;
  if (MLSNumber !== undefined && !isScalar(MLSNumber)) return undefined;
  if (Url !== undefined && !isScalar(Url)) return undefined;
  if (!isTextOrList(record.ExtensionColumn) || !isTextOrList(record.Images)) return undefined;
  return record as RemoteRecord;
}

/** `Data.List`: each record by the quick check, and by `remoteRecordSchema` when it leaves one to zod. */
const remoteRecordsSchema = z.array(z.unknown()).transform((list, ctx) => {
  const records: RemoteRecord[] = new Array(list.length);
  let valid = true;
  for (let i = 0; i < list.length; i++) {
    const quick = quickRemoteRecord(list[i]);
    if (quick !== undefined) {
      records[i] = quick;
      continue;
    }
    const checked = remoteRecordSchema.safeParse(list[i]);
    if (checked.success) records[i] = checked.data;
    else {
      // Every bad record is named, as zod alone would.
      valid = false;
      for (const issue of checked.error.issues)
        ctx.issues.push({
          ...issue,
          path: [i, ...issue.path],
          input: list[i],
        } as (typeof ctx.issues)[number]);
    }
  }
  return valid ? records : z.NEVER;
});

export const listDataSchema = z.looseObject({
  List: remoteRecordsSchema.nullish().transform((list) => list ?? []),
  VirtualCount: intLike.optional(),
});
export type ListPage = z.infer<typeof listDataSchema>;

// 4.6 Delete.
export const deleteRequestSchema = z.object({
  SerialNumber: serial,
  Keys: z.array(z.string().min(1)).min(1),
  KeyType: z.enum(KEY_TYPES),
});
export type DeleteRequest = z.infer<typeof deleteRequestSchema>;
export const deleteDataSchema = z.looseObject({ SuccessCount: intLike });

/** The path of each operation, relative to the configured base URL. */
export const PATHS = {
  edit: '/chat/Chatbot/Edit',
  session: '/chat/Chatbot/GetSession',
  ask: '/chat/Chat/ClientAsk',
  create: '/chat/Chatbot/RealEstateCreate',
  update: '/chat/Chatbot/RealEstateUpdate',
  list: '/chat/Chatbot/RealEstateList',
  delete: '/chat/Chatbot/RealEstateDelete',
} as const;
export type Operation = keyof typeof PATHS;
