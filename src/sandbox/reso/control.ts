import { z } from 'zod';
import type { Usage } from './budget.ts';
import type { ResoRecord } from './odata-eval.ts';
import { applyLimits, ResoOptionsError } from './options.ts';
import { type Email, emptyCounters, type LogEntry, newBudget, type ResoState } from './state.ts';

/** What a test can do to a running provider server, in process or over `/__reso/…`. */
export interface ResoControl {
  /** Counters, budget usage per key, suspensions, the clock and the feed's size. */
  snapshot(): ResoSnapshot;
  /** Requests received (control requests excluded), oldest first; the last 10 000. */
  requests(): LogEntry[];
  /** What the provider would have e-mailed (MLS Grid warnings and suspension notices). */
  emails(): Email[];
  /** Reset counters and budgets, suspensions, the request log and e-mails; all four by default. */
  reset(parts?: ResetParts): void;
  /** Move the server clock forward; returns the new time (ISO). */
  advanceClock(ms: number): string;
  /** Change listings: set fields (null removes one), new photos, ModificationTimestamp = `at` or now. */
  modify(keys: string[], change?: { fields?: ResoRecord; photos?: boolean; at?: string }): void;
  /** Move ModificationTimestamp to `at` (or now) without changing data; one `at` for many keys makes ties. */
  bump(keys: string[], at?: string): void;
  /** Delete at the source: MLS Grid serves `MlgCanView: false` for 7 days; the others drop the record. */
  markDeleted(keys: string[], at?: string): void;
  /** StandardStatus becomes Closed (and ModificationTimestamp moves). */
  close(keys: string[], at?: string): void;
  /** Append new listings; returns their keys. */
  add(count: number, at?: string): string[];
  /** The record as the provider serves it now (Media included), or undefined if it left the feed. */
  record(key: string): ResoRecord | undefined;
  /** ListingKeys by index: `count` keys from index `from`. */
  keys(from?: number, count?: number): string[];
  /** Change limits (by name, null removes), `retryAfter` or `replicationIdleMs` while running; resets budgets. */
  configure(change: ResoConfigure): void;
}

export interface ResetParts {
  counters?: boolean;
  suspension?: boolean;
  log?: boolean;
  emails?: boolean;
}

export interface ResoConfigure {
  limits?: Record<string, number | null>;
  retryAfter?: boolean;
  replicationIdleMs?: number;
}

export interface ResoSnapshot {
  provider: string;
  now: string;
  listings: number;
  counters: ResoState['counters'];
  usage: Record<string, { limit: string; used: number; remaining: number; resetAt: string }[]>;
  suspended: Record<string, { at: string; reason: string }>;
  emails: number;
  replicationCursors: number;
}

export function createControl(state: ResoState, keys: Set<string>): ResoControl {
  const store = state.store;
  const at = (iso?: string) => (iso === undefined ? state.clock.now() : Date.parse(iso));
  const indexOf = (key: string) => {
    const index = store.indexOfKey(key);
    if (index === undefined || index >= store.count)
      throw new ResoOptionsError(`no listing with ListingKey ${key}`);
    return index;
  };
  return {
    snapshot() {
      const now = state.clock.now();
      const usage: ResoSnapshot['usage'] = {};
      for (const key of keys) usage[label(key)] = state.budget.usage(key, now).map(describe);
      return {
        provider: state.settings.provider,
        now: new Date(now).toISOString(),
        listings: store.count,
        counters: structuredClone(state.counters),
        usage,
        suspended: Object.fromEntries([...state.suspended].map(([key, value]) => [label(key), value])),
        emails: state.emails.length,
        replicationCursors: state.cursors.size,
      };
    },
    requests: () => structuredClone(state.log),
    emails: () => structuredClone(state.emails),
    reset(given) {
      // No part named (no body, or `{}`): all four, as documented.
      const named = given && Object.values(given).some((v) => v !== undefined);
      const parts = named ? given : { counters: true, suspension: true, log: true, emails: true };
      if (parts.counters) {
        state.counters = emptyCounters();
        state.budget.reset();
        state.warned.clear();
      }
      if (parts.suspension) state.suspended.clear();
      if (parts.log) state.log.length = 0;
      if (parts.emails) state.emails.length = 0;
    },
    advanceClock(ms) {
      state.clock.advance(ms);
      return new Date(state.clock.now()).toISOString();
    },
    modify(list, change = {}) {
      for (const key of list)
        store.modify(indexOf(key), at(change.at), change.fields ?? {}, change.photos ?? false);
    },
    bump(list, when) {
      for (const key of list) store.modify(indexOf(key), at(when));
    },
    markDeleted(list, when) {
      for (const key of list) store.markDeleted(indexOf(key), at(when));
    },
    close(list, when) {
      for (const key of list) store.modify(indexOf(key), at(when), { StandardStatus: 'Closed' });
    },
    add(count, when) {
      return store.add(count, at(when)).map((index) => String(store.recordAt(index).ListingKey));
    },
    record(key) {
      const property = state.resources.get('Property')!;
      const index = property.indexOfKey(key);
      if (index === undefined || !property.visible(index, state.clock.now())) return undefined;
      const record = property.record(index);
      return { ...record, Media: property.media!(index, record) };
    },
    keys(from = 0, count = 10) {
      const out: string[] = [];
      for (let index = from; index < Math.min(store.count, from + count); index++)
        out.push(String(store.recordAt(index).ListingKey));
      return out;
    },
    configure(change) {
      const parsed = configureSchema.parse(change);
      if (parsed.limits)
        state.settings = {
          ...state.settings,
          limits: applyLimits(state.settings.provider, state.settings.limits, parsed.limits),
        };
      if (parsed.retryAfter !== undefined)
        state.settings = { ...state.settings, retryAfter: parsed.retryAfter };
      if (parsed.replicationIdleMs !== undefined)
        state.settings = { ...state.settings, replicationIdleMs: parsed.replicationIdleMs };
      state.budget = newBudget(state.settings);
      state.warned.clear();
    },
  };
}

/** Keys are secrets: control output names them by their last four characters only. */
function label(key: string): string {
  return key.length > 4 ? `…${key.slice(-4)}` : '…';
}

function describe(usage: Usage) {
  return {
    limit: usage.limit.name,
    used: usage.used,
    remaining: usage.remaining,
    resetAt: new Date(usage.resetAt).toISOString(),
  };
}

const keysSchema = z.array(z.string().min(1)).min(1);
const isoSchema = z.iso.datetime().optional();
export const configureSchema = z.strictObject({
  limits: z.record(z.string(), z.number().int().min(0).nullable()).optional(),
  retryAfter: z.boolean().optional(),
  replicationIdleMs: z.number().int().min(0).optional(),
});

/** Bodies of the control endpoints, checked with zod. */
export const controlBodies = {
  reset: z
    .strictObject({
      counters: z.boolean().optional(),
      suspension: z.boolean().optional(),
      log: z.boolean().optional(),
      emails: z.boolean().optional(),
    })
    .optional(),
  advance: z.strictObject({ ms: z.number().int().min(0) }),
  modify: z.strictObject({
    keys: keysSchema,
    fields: z.record(z.string(), z.unknown()).optional(),
    photos: z.boolean().optional(),
    at: isoSchema,
  }),
  keysAt: z.strictObject({ keys: keysSchema, at: isoSchema }),
  add: z.strictObject({ count: z.number().int().min(1).max(1_000_000), at: isoSchema }),
};
