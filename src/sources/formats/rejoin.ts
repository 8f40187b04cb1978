/**
 * Text whose head was read ahead (to sniff a CSV header, to peek at an OpenImmo scope) given back
 * whole: the head, then the rest of the iterator. A consumer that stops early, even at the head,
 * closes the rest, down to the file or the connection.
 */
export async function* rejoin(
  head: string,
  done: boolean,
  rest: AsyncIterator<string>,
): AsyncGenerator<string> {
  try {
    if (head) yield head;
    if (!done) yield* { [Symbol.asyncIterator]: () => rest };
  } finally {
    await rest.return?.();
  }
}
