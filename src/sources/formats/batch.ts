/**
 * Records move from a reader to the run in small batches: one await per batch rather than per
 * record keeps the async machinery off the hot path, and a batch small enough to die young keeps
 * records out of the old generation (the image runs with a 1 MB young generation).
 */
export const BATCH_RECORDS = 64;

/**
 * `read` of each item, in batches of at most `BATCH_RECORDS` (nothing when there is none; an item
 * `read` makes nothing of, undefined, is left out): the readers' shape. When `read` throws, the
 * items read before it are good and go first, then the error.
 */
export function* batchOf<T, R>(items: Iterable<T>, read: (item: T) => R | undefined): Generator<R[]> {
  let batch: R[] = [];
  try {
    for (const item of items) {
      const value = read(item);
      if (value !== undefined) batch.push(value);
      if (batch.length === BATCH_RECORDS) {
        // Handed out before the yield: an error thrown in at the yield must not hand it out again.
        const full = batch;
        batch = [];
        yield full;
      }
    }
  } catch (error) {
    if (batch.length > 0) yield batch;
    throw error;
  }
  if (batch.length > 0) yield batch;
}
