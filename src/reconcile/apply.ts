import pLimit from 'p-limit';
import type { PlatformClient } from '../api/client.ts';
import { isApiError, PlatformError } from '../api/errors.ts';
import type { Operation } from '../api/schemas.ts';
import { createListing } from './create-listing.ts';
import type { TagKeys } from './ownership.ts';
import type { Plan, PlannedDelete } from './plan-types.ts';
import type { Failure, NotApplied } from './report-types.ts';

export interface ApplyOptions {
  chatbot: string;
  tags: TagKeys;
  /** Writes in flight at once (the client's limiter bounds every attempt as well). */
  concurrency: number;
  /** Keys per RealEstateDelete call. */
  deleteBatchSize: number;
  /** Stops issuing new writes; the ones in flight finish. */
  signal?: AbortSignal | undefined;
  onProgress?: (done: number, total: number) => void;
}

export interface ApplyResult {
  created: number;
  updated: number;
  adopted: number;
  deleted: number;
  duplicatesDeleted: number;
  ambiguousResolved: number;
  failures: Failure[];
  notApplied: NotApplied;
  cancelled: boolean;
}

interface Task {
  kind: keyof NotApplied;
  keys: string[];
  run: () => Promise<void>;
}

/** A write that did not happen, as a report entry. Programming errors are not failures: they throw. */
function toFailure(error: unknown, operation: Operation, key: string, id?: number): Failure {
  if (!isApiError(error)) throw error;
  const platform =
    error instanceof PlatformError
      ? {
          ...(error.platformCode === undefined ? {} : { platformCode: error.platformCode }),
          platformMessage: error.platformMessage,
        }
      : {};
  return {
    key,
    operation,
    ...(id === undefined ? {} : { id }),
    code: error.code,
    ...platform,
    message: error.message,
  };
}

/**
 * Carry out a plan: one call per create, the whole record per update by remote ID, deletes batched.
 * Every write is independent: one failure is recorded and the rest go on.
 */
export async function applyPlan(
  client: PlatformClient,
  plan: Plan,
  options: ApplyOptions,
): Promise<ApplyResult> {
  const result: ApplyResult = {
    created: 0,
    updated: 0,
    adopted: 0,
    deleted: 0,
    duplicatesDeleted: 0,
    ambiguousResolved: 0,
    failures: [],
    notApplied: { creates: [], updates: [], deletes: [] },
    cancelled: false,
  };
  const { chatbot, signal } = options;
  const createContext = {
    client,
    chatbot,
    keyField: plan.keyField,
    feedId: plan.feedId,
    tags: options.tags,
    signal,
  };
  const tasks: Task[] = [];

  for (const update of plan.updates) {
    tasks.push({
      kind: 'updates',
      keys: [update.key],
      run: async () => {
        try {
          const request = {
            ...update.listing,
            SerialNumber: chatbot,
            Key: String(update.id),
            KeyType: 'NewOaks' as const,
          };
          const count = await client.updateListing(request);
          if (count === 0) {
            const message = `update: listing ID ${update.id} no longer exists; the next run recreates it`;
            result.failures.push({
              key: update.key,
              operation: 'update',
              id: update.id,
              code: 'E_NOT_FOUND',
              message,
            });
            return;
          }
          result.updated++;
          if (update.adopt) result.adopted++;
        } catch (error) {
          result.failures.push(toFailure(error, 'update', update.key, update.id));
        }
      },
    });
  }
  for (const create of plan.creates) {
    tasks.push({
      kind: 'creates',
      keys: [create.key],
      run: async () => {
        try {
          const outcome = await createListing(createContext, create.key, create.listing);
          result.created++;
          if (outcome === 'resolved') result.ambiguousResolved++;
        } catch (error) {
          result.failures.push(toFailure(error, 'create', create.key));
        }
      },
    });
  }
  for (const batch of chunk(plan.deletes, options.deleteBatchSize)) {
    tasks.push({
      kind: 'deletes',
      keys: batch.map((d) => d.key),
      run: () => deleteBatch(client, chatbot, batch, result),
    });
  }

  const limit = pLimit(Math.max(1, options.concurrency));
  let done = 0;
  const settled = await Promise.allSettled(
    tasks.map((task) =>
      limit(async () => {
        if (signal?.aborted) {
          result.cancelled = true;
          result.notApplied[task.kind].push(...task.keys);
          return;
        }
        await task.run();
        options.onProgress?.(++done, tasks.length);
      }),
    ),
  );
  const crash = settled.find((s) => s.status === 'rejected');
  if (crash) throw crash.reason;
  // In key order, not completion order: two runs of one plan report alike.
  result.failures.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return result;
}

async function deleteBatch(
  client: PlatformClient,
  chatbot: string,
  batch: PlannedDelete[],
  result: ApplyResult,
) {
  try {
    // Fewer deleted than sent means some were already gone: that is the state we wanted.
    const count = await client.deleteListings({
      SerialNumber: chatbot,
      Keys: batch.map((d) => String(d.id)),
      KeyType: 'NewOaks',
    });
    result.deleted += Math.min(count, batch.length);
    result.duplicatesDeleted += batch.filter((d) => d.reason === 'duplicate').length;
  } catch (error) {
    for (const d of batch) result.failures.push(toFailure(error, 'delete', d.key, d.id));
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
