export {
  canonicalizeRemote,
  platformImages,
  RETURNED_FIELDS,
  type RemoteListing,
  toEnum,
  toExtensionColumn,
  toImages,
  toNumber,
} from './canonicalize.ts';
export {
  type AskInput,
  type AskResult,
  byteLengthOf,
  type CallEvent,
  type CallOptions,
  type ClientOptions,
  createClient,
  joinedBytes,
  type PageBytes,
  type PlatformClient,
} from './client.ts';
export { parseJson, unwrapEnvelope } from './envelope.ts';
export {
  AbortedError,
  AmbiguousCreateError,
  ApiError,
  type ApiFailure,
  InvalidJsonError,
  isApiError,
  NetworkError,
  PlatformError,
  platformStatusError,
  SchemaError,
  TimeoutError,
} from './errors.ts';
export { type ApiConfig, clientFromConfig, type PlatformOptions } from './from-config.ts';
export type {
  CreateRequest,
  DeleteRequest,
  ListPage,
  ListRequest,
  Operation,
  RemoteRecord,
  UpdateRequest,
} from './schemas.ts';
export { listDataSchema, quickRemoteRecord } from './schemas.ts';
export { type AnswerEvent, AnswerStreamParser } from './stream-parser.ts';
