import type { CallOptions, Operation, PlatformClient } from '../api/index.ts';
import type { RunReport } from './report-types.ts';

export function zeroCalls(): Record<Operation, number> {
  return { edit: 0, session: 0, ask: 0, create: 0, update: 0, list: 0, delete: 0 };
}

type Failed = NonNullable<RunReport['apiCallsFailed']>;

/**
 * Count the logical calls of one run, and the attempts of those that failed once their retries were
 * spent (a network error or a timeout says how many: `at.attempts`). The client passed in is shared
 * (the worker wires it once), so the run counts through a thin wrapper instead of the client's own
 * `onCall`, which sees attempts.
 */
export function countingClient(client: PlatformClient): {
  client: PlatformClient;
  calls: Record<Operation, number>;
  failed: Failed;
} {
  const calls = zeroCalls();
  const failed: Failed = {};
  /** A call counts once it is sent (`CallOptions.onSent`): one called off while it waited never was. */
  const counting = (operation: Operation, options: CallOptions = {}): CallOptions => ({
    ...options,
    onSent: () => {
      calls[operation]++;
      options.onSent?.();
    },
  });
  const failures = async <R>(operation: Operation, call: Promise<R>): Promise<R> => {
    try {
      return await call;
    } catch (error) {
      const attempts = (error as { at?: { attempts?: unknown } } | null)?.at?.attempts;
      if (typeof attempts === 'number') {
        const entry = failed[operation] ?? { calls: 0, attempts: 0 };
        failed[operation] = { calls: entry.calls + 1, attempts: entry.attempts + attempts };
      }
      throw error;
    }
  };
  const wrapped: PlatformClient = {
    ...client,
    createListing: (body, options) =>
      failures('create', client.createListing(body, counting('create', options))),
    createListingJson: (serialNumber, json, options) =>
      failures('create', client.createListingJson(serialNumber, json, counting('create', options))),
    updateListing: (body, options) =>
      failures('update', client.updateListing(body, counting('update', options))),
    updateListingJson: (serialNumber, key, json, options) =>
      failures('update', client.updateListingJson(serialNumber, key, json, counting('update', options))),
    listListings: (body, options) => failures('list', client.listListings(body, counting('list', options))),
    listListingsDecoded: (body, decode, options) =>
      failures('list', client.listListingsDecoded(body, decode, counting('list', options))),
    deleteListings: (body, options) =>
      failures('delete', client.deleteListings(body, counting('delete', options))),
  };
  return { client: wrapped, calls, failed };
}
