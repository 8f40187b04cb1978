import type { Operation, PlatformClient } from '../api/index.ts';

export function zeroCalls(): Record<Operation, number> {
  return { edit: 0, session: 0, ask: 0, create: 0, update: 0, list: 0, delete: 0 };
}

/**
 * Count the logical calls of one run. The client passed in is shared (the worker wires it once), so
 * the run counts through a thin wrapper instead of the client's own `onCall`, which sees attempts.
 */
export function countingClient(client: PlatformClient): {
  client: PlatformClient;
  calls: Record<Operation, number>;
} {
  const calls = zeroCalls();
  const counted: PlatformClient = {
    ...client,
    createListing: (request, options) => {
      calls.create++;
      return client.createListing(request, options);
    },
    updateListing: (request, options) => {
      calls.update++;
      return client.updateListing(request, options);
    },
    listListings: (request, options) => {
      calls.list++;
      return client.listListings(request, options);
    },
    deleteListings: (request, options) => {
      calls.delete++;
      return client.deleteListings(request, options);
    },
  };
  return { client: counted, calls };
}
