import type { HistoryOptions } from '../state/index.ts';
import { namespaceOf } from '../state/index.ts';
import { openEmbeddedStore } from './embedded-queue-store.ts';
import { openPostgresStore } from './postgres-queue-store.ts';
import { openRedisStore } from './redis-queue-store.ts';
import { type QueueStore, redactUrl, type StoreChoice } from './store.ts';

/**
 * Open the store the environment chose. `prefix` is the worker's (`{feed-sync}`): the key prefix on
 * Redis, the schema names on Postgres (`feed_sync`, `feed_sync_state`).
 */
export function openQueueStore(
  choice: StoreChoice,
  prefix: string,
  history: HistoryOptions = {},
): Promise<QueueStore> {
  switch (choice.kind) {
    case 'redis':
      return openRedisStore(choice.url, prefix, history);
    case 'postgres':
      return openPostgresStore({
        connection: { connectionString: choice.url },
        namespace: namespaceOf(prefix),
        kind: 'postgres',
        where: redactUrl(choice.url),
        history,
      });
    case 'embedded':
      return openEmbeddedStore(choice.dir, namespaceOf(prefix), history);
  }
}
