import type { Operation, PlatformClient } from '../api/index.ts';
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
  const counted =
    <A extends unknown[], R>(operation: Operation, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      calls[operation]++;
      try {
        return await call(...args);
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
    createListing: counted('create', client.createListing),
    updateListing: counted('update', client.updateListing),
    listListings: counted('list', client.listListings),
    listListingsDecoded: counted('list', client.listListingsDecoded),
    deleteListings: counted('delete', client.deleteListings),
  };
  return { client: wrapped, calls, failed };
}
