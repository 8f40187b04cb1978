import { describe, expect, it } from 'vitest';
import type { PlatformClient } from '../../src/api/index.ts';
import type { ListPage, RemoteRecord } from '../../src/api/schemas.ts';
import { readSnapshot } from '../../src/reconcile/index.ts';
import { platformClient } from '../helpers/platform-client.ts';

const record = (id: number): RemoteRecord => ({ ID: id, MLSNumber: `M-${id}`, SalePrice: '100' });

/** A client whose list operation answers the pages given (the rest of the client is never called). */
function pagesClient(pages: Record<number, RemoteRecord[]>, virtualCount: number): PlatformClient {
  return Object.assign(platformClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 }), {
    listListings: async (request: { PageNumber?: number }): Promise<ListPage> => {
      return { List: pages[request.PageNumber ?? 1] ?? [], VirtualCount: virtualCount };
    },
  });
}

describe('readSnapshot', () => {
  it('dedupes by ID and notes the drift when listings move under the read', async () => {
    // A listing was added at the front while page 2 was read: ID 2 comes back twice, ID 5 never.
    const client = pagesClient({ 1: [record(1), record(2)], 2: [record(2), record(3)], 3: [record(4)] }, 5);
    const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 2, concurrency: 2 });
    expect(snapshot.listings.map((l) => l.id)).toEqual([1, 2, 3, 4]);
    expect(snapshot.listings[0]?.listing).toEqual({ MLSNumber: 'M-1', SalePrice: 100 });
    expect(snapshot.pages).toBe(3);
    expect(snapshot.drift).toEqual([
      '1 listing ID(s) were returned on two pages',
      'VirtualCount said 5, the pages held 4 distinct listings',
    ]);
  });

  it('stops at the page count VirtualCount implies, even when that last page is full', async () => {
    const client = pagesClient({ 1: [record(1), record(2)], 2: [record(3), record(4)], 3: [record(5)] }, 4);
    const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 2, concurrency: 2 });
    expect(snapshot.pages).toBe(2);
    expect(snapshot.drift).toEqual([]);
  });

  it('reads on past VirtualCount while the last page is full and should not be (the list grew)', async () => {
    const client = pagesClient({ 1: [record(1), record(2)], 2: [record(3), record(4)], 3: [record(5)] }, 3);
    const snapshot = await readSnapshot(client, { chatbot: 'S', pageSize: 2, concurrency: 2 });
    expect(snapshot.listings.map((l) => l.id)).toEqual([1, 2, 3, 4, 5]);
    expect(snapshot.drift).toEqual([
      'page 3 was read beyond VirtualCount 3',
      'VirtualCount said 3, the pages held 5 distinct listings',
    ]);
  });
});
