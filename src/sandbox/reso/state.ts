import type { IncomingHttpHeaders } from 'node:http';
import { Budget, type Usage } from './budget.ts';
import type { ResoClock } from './clock.ts';
import type { ResoListingStore } from './listing-store.ts';
import type { ResoRecord } from './odata-eval.ts';
import type { After, SkipCache, Walk } from './page.ts';
import type { ResoQuery } from './query.ts';
import type { Resource } from './resources.ts';
import type { ResoSettings } from './settings.ts';

/** One request as the providers see it. */
export interface ProviderRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
  /** `http://host:port` of this server, for absolute nextLinks. */
  origin: string;
}

/** What a provider answers; the server serializes, compresses, counts and logs it. */
export interface ProviderReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The key whose budget the answer's bytes count against, when it was admitted. */
  budgetKey?: string;
}

/** A server-held replication cursor (Trestle's `replication?id=`). */
export interface ReplicationCursor {
  resource: string;
  query: ResoQuery;
  walk: Walk;
  take: number;
  after?: After;
  lastUsed: number;
}

/** A message the provider would have e-mailed the account's contact (MLS Grid's warnings). */
export interface Email {
  at: string;
  kind: 'warning' | 'suspension';
  subject: string;
  body: string;
}

export interface LogEntry {
  at: string;
  method: string;
  /** Path and query, as received. */
  url: string;
  status: number;
  bytes: number;
}

export interface Counters {
  requests: number;
  admitted: number;
  refused: number;
  bytes: number;
  /** Answers per status code. */
  byStatus: Record<string, number>;
}

/** Everything one provider server holds. */
export interface ResoState {
  settings: ResoSettings;
  readonly clock: ResoClock;
  readonly store: ResoListingStore;
  readonly resources: ReadonlyMap<string, Resource>;
  budget: Budget;
  readonly skipCache: SkipCache;
  readonly cursors: Map<string, ReplicationCursor>;
  /** Trestle: issued access tokens and when they expire (ms). */
  readonly issuedTokens: Map<string, number>;
  /** Keys suspended (MLS Grid) and why. */
  readonly suspended: Map<string, { at: string; reason: string }>;
  readonly emails: Email[];
  /** Windows already warned about, `key/limit`, so one window sends one warning. */
  readonly warned: Set<string>;
  readonly log: LogEntry[];
  counters: Counters;
}

export function emptyCounters(): Counters {
  return { requests: 0, admitted: 0, refused: 0, bytes: 0, byStatus: {} };
}

export function newBudget(settings: ResoSettings): Budget {
  return new Budget(settings.limits);
}

/** An OData JSON error body, the shape the RESO Web API specifies (OData JSON Format §21). */
export function odataError(status: number, message: string, code: string | number = status): ProviderReply {
  return { status, body: { error: { code, message } } };
}

/** The 400 of a bad query option. */
export function describeUsage(usage: Usage): string {
  const { limit } = usage;
  const unit = limit.unit === 'bytes' ? 'bytes' : 'requests';
  return `${limit.limit} ${unit} per ${windowWords(limit.windowMs)} (${limit.name})`;
}

function windowWords(ms: number): string {
  if (ms % 86_400_000 === 0) return ms === 86_400_000 ? '24 hours' : `${ms / 86_400_000} days`;
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  return ms === 1000 ? 'second' : `${ms} ms`;
}

/** The bearer token of `Authorization: Bearer x`, if any. */
export function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  const match = typeof value === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}

export function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  const value = headers['accept-encoding'];
  return typeof value === 'string' && /\bgzip\b/i.test(value);
}

/** An OData collection answer. */
export function collection(
  origin: string,
  context: string,
  value: ResoRecord[],
  extra: { nextLink?: string; count?: number } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = { '@odata.context': `${origin}${context}` };
  if (extra.count !== undefined) body['@odata.count'] = extra.count;
  body.value = value;
  if (extra.nextLink) body['@odata.nextLink'] = extra.nextLink;
  return body;
}
