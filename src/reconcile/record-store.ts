import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync, writevSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FeedSyncError } from '../errors.ts';
import type { Listing } from '../normalize/index.ts';
import { float64s, uint32s } from '../number-column.ts';
import type { ChangeKeeper, FieldChange } from './plan-types.ts';

/** The temporary file of a run's records cannot be made or written (no space, no permission). */
export class SpillError extends FeedSyncError {
  constructor(dir: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `cannot keep the feed's records in a temporary file under ${dir} (${reason}); set TMPDIR to a writable folder with room for about 1 KB a listing`,
      { kind: 'SERVICE_UNAVAILABLE', code: 'E_SPILL', retryable: true, cause },
    );
  }
}

/**
 * Where a run keeps the full records of its feed while it plans with digests: put one, get it back
 * by the number `put` gave. A run holds only that number per listing; the record is read back when
 * it is written to the platform (creates and updates), one at a time.
 */
export interface RecordStore<T = Listing> {
  put(record: T): number;
  get(ref: number): T;
  /** Records held. */
  readonly size: number;
  /** Frees what the store holds (the spill file). Idempotent. */
  close(): void;
}

/**
 * The changes of the listings that differ from the feed (`ChangeKeeper`), kept in the run's record
 * store beside its records: JSON as the records are (a value that is unset, `undefined`, comes back
 * as a field left out, which reads the same).
 */
export function changesIn(store: RecordStore): ChangeKeeper {
  return {
    put: (changes) => store.put(changes as unknown as Listing),
    get: (ref) => store.get(ref) as unknown as readonly FieldChange[],
  };
}

/** Records kept as they are: for listings a caller already holds in memory (tests, the bench). */
export function memoryRecords(): RecordStore {
  const records: Listing[] = [];
  return {
    put: (listing) => records.push(listing) - 1,
    get: (ref) => {
      const record = records[ref];
      if (record === undefined) throw new RangeError(`no record ${ref}`);
      return record;
    },
    get size() {
      return records.length;
    },
    close: () => {
      records.length = 0;
    },
  };
}

/** A temporary file, unlinked as soon as it is open: nothing is left on disk whatever ends the process. */
function openSpill(dir: string): number {
  try {
    const folder = mkdtempSync(join(dir, 'feed-sync-records-'));
    const fd = openSync(join(folder, 'records.jsonl'), 'w+');
    rmSync(folder, { recursive: true, force: true });
    return fd;
  } catch (error) {
    throw new SpillError(dir, error);
  }
}

/** Write all of `length` bytes at `position` (a spill file's writes never append: positions are known). */
function writeFully(fd: number, bytes: Uint8Array, length: number, position: number, dir: string): void {
  let at = 0;
  try {
    while (at < length) at += writeSync(fd, bytes, at, length - at, position + at);
  } catch (error) {
    throw new SpillError(dir, error);
  }
}

/** Read `length` bytes at `position` into `buffer`; `what` names them if the file ends first. */
function readInto(fd: number, buffer: Buffer, length: number, position: number, what: string): void {
  let at = 0;
  while (at < length) {
    const read = readSync(fd, buffer, at, length - at, position + at);
    if (read === 0) throw new Error(`${what} is cut short in the spill file`);
    at += read;
  }
}

/** Read back `length` bytes at `position`; `what` names them if the file ends first. */
function readFully(fd: number, length: number, position: number, what: string): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  readInto(fd, buffer, length, position, what);
  return buffer;
}

/**
 * One buffer used again for bytes read or joined one blob at a time, grown (doubling) up to `bound`;
 * a blob larger than that gets a buffer of its own, so one huge blob is not held afterwards. What it
 * gives is valid until it is asked again.
 */
export class ReusedBuffer {
  readonly #bound: number;
  #buffer: Buffer | undefined;

  constructor(bound: number) {
    this.#bound = bound;
  }

  /** A buffer of at least `length` bytes. */
  of(length: number): Buffer {
    if (length > this.#bound) return Buffer.allocUnsafeSlow(length);
    const held = this.#buffer;
    if (held === undefined || held.length < length)
      this.#buffer = Buffer.allocUnsafeSlow(Math.min(this.#bound, Math.max(length, 2 * (held?.length ?? 0))));
    return this.#buffer as Buffer;
  }

  /** Lets the buffer go (the next `of` makes one again). */
  release(): void {
    this.#buffer = undefined;
  }
}

/** Spans a block of `Spans` holds one offset for. */
const SPAN_BLOCK = 64;

/**
 * Where each item of a spill file stands, for items written one after another with nothing between
 * them: a length each (4 bytes), and the offset of every 64th item (an item's offset is that one's plus
 * the lengths between). An offset an item, as a double, was 8 bytes more an item: ~16 MB of a 1M
 * rewrite's peak (its records and its changes, a million each).
 */
class Spans {
  readonly #lengths = uint32s();
  readonly #bases = float64s();
  #count = 0;
  #end = 0;
  /** The last offset asked for, to read the next item's without a sum (items read in order). */
  #lastItem = -1;
  #lastOffset = 0;

  /** The next item's, `length` bytes at the end of the items before it. */
  push(length: number): void {
    if (this.#count % SPAN_BLOCK === 0) this.#bases.set(this.#count / SPAN_BLOCK, this.#end);
    this.#lengths.set(this.#count++, length);
    this.#end += length;
  }

  length(i: number): number {
    return this.#lengths.get(i);
  }

  offset(i: number): number {
    if (i === this.#lastItem + 1 && this.#lastItem >= 0 && i % SPAN_BLOCK !== 0)
      this.#lastOffset += this.#lengths.get(this.#lastItem);
    else if (i !== this.#lastItem) {
      const block = Math.floor(i / SPAN_BLOCK);
      let offset = this.#bases.get(block);
      for (let k = block * SPAN_BLOCK; k < i; k++) offset += this.#lengths.get(k);
      this.#lastOffset = offset;
    }
    this.#lastItem = i;
    return this.#lastOffset;
  }
}

/** Blobs kept in a temporary file as they are, each by the number `put` gave (`get` reads it back). */
export interface ByteStore {
  /** A blob, whole or in the pieces it arrived in (written one after another, read back as one). */
  put(bytes: Uint8Array | readonly Uint8Array[]): number;
  /**
   * The blob, in a buffer of its own, or in the buffer `into` returns for its length (at least that
   * long, used again by the caller): a view of it, valid until the caller reuses it.
   */
  get(ref: number, into?: (length: number) => Buffer): Buffer;
  readonly size: number;
  /** Frees the file. Idempotent. */
  close(): void;
}

/**
 * Blobs (a page of the platform's listings as it came, a megabyte or so) in a temporary file, one
 * write each, an offset and a length per blob; read back whole, synchronously.
 */
export function spillBytes(dir = tmpdir()): ByteStore {
  let fd: number | undefined = openSpill(dir);
  const offsets = float64s();
  const lengths = uint32s();
  let count = 0;
  let written = 0;
  const open = (): number => {
    if (fd === undefined) throw new Error('the byte store is closed');
    return fd;
  };
  return {
    put(bytes) {
      const at = written;
      const pieces = bytes instanceof Uint8Array ? [bytes] : bytes;
      // The pieces in one write where the system takes them whole (a page's ~16: one call, not 16).
      let done = 0;
      try {
        if (pieces.length > 1) done = writevSync(open(), pieces as Uint8Array[], at);
      } catch (error) {
        throw new SpillError(dir, error);
      }
      for (const piece of pieces) {
        // What the one write did not take, piece by piece.
        const skip = Math.min(done, piece.length);
        done -= skip;
        if (skip < piece.length)
          writeFully(open(), piece.subarray(skip), piece.length - skip, written + skip, dir);
        written += piece.length;
      }
      offsets.set(count, at);
      lengths.set(count, written - at);
      return count++;
    },
    get(ref, into) {
      if (!(ref >= 0 && ref < count)) throw new RangeError(`no blob ${ref}`);
      const length = lengths.get(ref);
      if (into === undefined) return readFully(open(), length, offsets.get(ref), `blob ${ref}`);
      const buffer = into(length);
      readInto(open(), buffer, length, offsets.get(ref), `blob ${ref}`);
      return buffer.subarray(0, length);
    },
    get size() {
      return count;
    },
    close() {
      if (fd === undefined) return;
      closeSync(fd);
      fd = undefined;
    },
  };
}

/** Bytes gathered before one write to the spill file. */
const FLUSH_BYTES = 1 << 20;
/** Bytes read at once when records are read front to back (a run's creates, in the feed's order). */
const READ_AHEAD_BYTES = 256 << 10;
/** The batch's size before the first records grow it. */
const FIRST_BATCH_BYTES = 16 << 10;

/**
 * Records spilled to a temporary file as JSON, one after another; their spans in typed arrays (~4
 * bytes a record: `Spans`). The file is unlinked as soon as it is open, so nothing is left
 * on disk whatever ends the process. Reads and writes are synchronous: a record is a kilobyte or
 * so, read from the page cache, and written in 1 MiB batches. Each record is encoded straight into
 * the batch buffer (no byte count, join or copy per record: this runs for every listing of a run).
 */
export function spillRecords<T = Listing>(
  dir = tmpdir(),
): RecordStore<T> & {
  /** The record as the JSON text it was kept in (`get` parses it). */
  text(ref: number): string;
} {
  let fd: number | undefined = openSpill(dir);
  /** Each record's span: records are written one after another, nothing between them. */
  const spans = new Spans();
  let count = 0;
  /** Bytes in the file. */
  let written = 0;
  /**
   * The batch: bytes encoded and not yet written, `batch[0, pending)`. It starts small and doubles up
   * to 1 MiB as records come: a worker runs dozens of small feeds at once, each with a store.
   */
  let batch: Buffer | undefined = Buffer.allocUnsafe(FIRST_BATCH_BYTES);
  let pending = 0;
  /** Room for `bytes` more in the batch, growing it (never past `FLUSH_BYTES`) before flushing it. */
  const roomFor = (bytes: number) => {
    if (batch === undefined || pending + bytes <= batch.length) return;
    if (batch.length < FLUSH_BYTES) {
      let size = batch.length * 2;
      while (size < pending + bytes && size < FLUSH_BYTES) size *= 2;
      const grown = Buffer.allocUnsafe(Math.min(size, FLUSH_BYTES));
      batch.copy(grown, 0, 0, pending);
      batch = grown;
      if (pending + bytes <= batch.length) return;
    }
    flush();
  };

  const open = (): number => {
    if (fd === undefined) throw new Error('the record store is closed');
    return fd;
  };
  const writeAll = (bytes: Buffer, length: number) => {
    writeFully(open(), bytes, length, written, dir);
    written += length;
  };
  const flush = () => {
    if (pending === 0 || batch === undefined) return;
    writeAll(batch, pending);
    pending = 0;
  };
  /**
   * The bytes last read ahead, `ahead[0, aheadLength)` = the file's `[aheadAt, aheadAt + aheadLength)`.
   * A record read just past them (records read front to back) reads the next 256 KiB at once: one
   * read for a few hundred records, where a read each cost ~10 µs. A record read elsewhere (key
   * order, a brief) is read alone.
   */
  let ahead: Buffer | undefined;
  let aheadAt = 0;
  let aheadLength = 0;
  /**
   * A record read on its own (out of the read-ahead's order: the join's records in the platform's
   * order, the updates' in the plan's), into one buffer used again: a buffer per record was ~1 KB of
   * garbage outside the heap per read, two reads a listing in a rewrite (~1.3 GB of buffers at 1M
   * listings), which lingers until the heap's next collection and lifted the run's peak.
   */
  // A record larger than the read-ahead (hundreds of kilobytes) is read into a buffer of its own.
  const scratch = new ReusedBuffer(READ_AHEAD_BYTES);
  const alone = (fd: number, offset: number, length: number, what: string): string => {
    const buffer = scratch.of(length);
    readInto(fd, buffer, length, offset, what);
    return buffer.toString('utf8', 0, length);
  };
  const text = (offset: number, length: number, what: string): string => {
    const fd = open();
    const end = aheadAt + aheadLength;
    if (offset >= aheadAt && offset + length <= end && ahead !== undefined)
      return ahead.toString('utf8', offset - aheadAt, offset - aheadAt + length);
    // Onward: at or past the start of what was read ahead, and not far past its end.
    const onward = ahead === undefined || (offset >= aheadAt && offset - end < READ_AHEAD_BYTES);
    if (!onward || length > READ_AHEAD_BYTES) return alone(fd, offset, length, what);
    const span = Math.min(READ_AHEAD_BYTES, written - offset);
    // As large as the file so far, up to 256 KiB: a worker runs dozens of small feeds at once.
    if (ahead === undefined || ahead.length < span) ahead = Buffer.allocUnsafe(span);
    // Nothing is read ahead until the read has succeeded: a failed read leaves no stale window.
    aheadLength = 0;
    readInto(fd, ahead, span, offset, what);
    aheadAt = offset;
    aheadLength = span;
    return ahead.toString('utf8', 0, length);
  };
  return {
    put(record) {
      open();
      const json = JSON.stringify(record);
      // UTF-8 takes at most 3 bytes per UTF-16 unit: a record that surely fits is encoded in place.
      const most = json.length * 3;
      if (most <= FLUSH_BYTES) roomFor(most);
      else flush();
      let length: number;
      if (most <= FLUSH_BYTES && batch !== undefined) {
        // At `written + pending`: where the records before it end.
        length = batch.write(json, pending, 'utf8');
        pending += length;
      } else {
        // Larger than a batch (a record of hundreds of kilobytes): written on its own, at `written`
        // (the batch flushed above), where the records before it end.
        const bytes = Buffer.from(json, 'utf8');
        length = bytes.length;
        writeAll(bytes, length);
      }
      spans.push(length);
      return count++;
    },
    get(ref) {
      return JSON.parse(this.text(ref)) as T;
    },
    text(ref) {
      if (!(ref >= 0 && ref < count)) throw new RangeError(`no record ${ref}`);
      const offset = spans.offset(ref);
      const length = spans.length(ref);
      if (offset + length > written) flush();
      return text(offset, length, `record ${ref}`);
    },
    get size() {
      return count;
    },
    close() {
      if (fd === undefined) return;
      closeSync(fd);
      fd = undefined;
      batch = undefined;
      pending = 0;
      ahead = undefined;
      aheadLength = 0;
      scratch.release();
    },
  };
}
