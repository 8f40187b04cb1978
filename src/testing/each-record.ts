/** The records of a reader's batches, one by one (readers yield a batch per chunk of text). */
export async function* eachRecord<T>(batches: AsyncIterable<readonly T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}
