import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/**
 * Decompress when the bytes are gzip (magic `1f 8b`), whatever the name or Content-Type says: a
 * `.gz` file served as `application/gzip` is not Content-Encoding and arrives compressed.
 */
export async function* gunzipIfNeeded(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let first = await iterator.next();
  while (!first.done && first.value.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    first = { done: false, value: Buffer.concat([first.value, next.value]) };
  }
  if (first.done) return;
  const head = first.value;
  const rest = (async function* () {
    try {
      yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      // Stopped early (a size cap, a parse error): close the source (the file handle, the socket).
      await iterator.return?.();
    }
  })();
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* rest;
    return;
  }
  const gunzip = createGunzip();
  // Errors of either side surface through the gunzip stream being iterated.
  pipeline(Readable.from(rest), gunzip).catch(() => {});
  yield* gunzip;
}
