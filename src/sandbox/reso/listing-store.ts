import { baseTimestamp, type GeneratorOptions, generateListing, indexOfKey } from './generate.ts';
import { generateMedia } from './media.ts';
import type { ResoRecord } from './odata-eval.ts';

/** What tests changed about one listing; everything else is regenerated from its index. */
interface Change {
  patch: ResoRecord;
  modified?: number;
  photosVersion: number;
  photosChanged?: number;
  /** When it was deleted at the source (ms). */
  deletedAt?: number;
}

/**
 * The provider's listings: `count` generated lazily by index, plus the changes tests made. Keeps
 * one order, by (ModificationTimestamp, index), that servers page through; `version` moves on every
 * change so cached paging positions can be dropped.
 */
export class ResoListingStore {
  private readonly changes = new Map<number, Change>();
  private order: number[] | undefined;
  count: number;
  version = 0;

  readonly options: GeneratorOptions;
  /** How long a deleted listing stays in the feed (as a marker) before it vanishes, in ms. 0 = at once. */
  readonly markerRetentionMs: number;

  constructor(options: GeneratorOptions, count: number, markerRetentionMs: number) {
    this.options = options;
    this.count = count;
    this.markerRetentionMs = markerRetentionMs;
  }

  indexOfKey(key: string): number | undefined {
    return indexOfKey(this.options, key);
  }

  timestampOf(index: number): number {
    return this.changes.get(index)?.modified ?? baseTimestamp(this.options, index);
  }

  isDeleted(index: number): boolean {
    return this.changes.get(index)?.deletedAt !== undefined;
  }

  /** Whether the listing is still served at `now`: not deleted, or a marker not yet expired. */
  isVisible(index: number, now: number): boolean {
    const deletedAt = this.changes.get(index)?.deletedAt;
    return (
      deletedAt === undefined || (this.markerRetentionMs > 0 && now < deletedAt + this.markerRetentionMs)
    );
  }

  /** The current record, without Media. A fresh object: callers may change it. */
  recordAt(index: number): ResoRecord {
    const record = generateListing(this.options, index);
    const change = this.changes.get(index);
    if (!change) return record;
    for (const [field, value] of Object.entries(change.patch)) {
      if (value === null || value === undefined) delete record[field];
      else record[field] = structuredClone(value);
    }
    if (change.modified !== undefined) record.ModificationTimestamp = new Date(change.modified).toISOString();
    if (change.photosChanged !== undefined)
      record.PhotosChangeTimestamp = new Date(change.photosChanged).toISOString();
    return record;
  }

  mediaAt(index: number, record: ResoRecord): ResoRecord[] {
    const version = this.changes.get(index)?.photosVersion ?? 0;
    return generateMedia(this.options, index, version, String(record.PhotosChangeTimestamp));
  }

  /** Indices sorted by (ModificationTimestamp, index). */
  timeline(): readonly number[] {
    return this.mutableOrder();
  }

  private mutableOrder(): number[] {
    this.order ??= Array.from({ length: this.count }, (_, i) => i);
    return this.order;
  }

  /** First position in `timeline()` whose timestamp is >= `time`. */
  lowerBound(time: number): number {
    const order = this.timeline();
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.timestampOf(order[mid]!) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Change a listing as the MLS would: set fields (null removes one), move ModificationTimestamp to
   * `at`, and with `photos` issue new Media (new keys and URLs) and a new PhotosChangeTimestamp.
   */
  modify(index: number, at: number, patch: ResoRecord = {}, photos = false): void {
    this.check(index);
    const change = this.changeOf(index);
    Object.assign(change.patch, patch);
    if (photos) {
      change.photosVersion++;
      change.photosChanged = at;
    }
    this.move(index, at);
  }

  /** The listing left the feed at the source: a marker until `markerRetentionMs` passes, then gone. */
  markDeleted(index: number, at: number): void {
    this.check(index);
    this.changeOf(index).deletedAt = at;
    this.move(index, at);
  }

  /** New listings at the end of the feed, modified at `at`. Returns their indices. */
  add(count: number, at: number): number[] {
    this.timeline();
    const added: number[] = [];
    for (let n = 0; n < count; n++) {
      const index = this.count++;
      added.push(index);
      this.move(index, at);
    }
    return added;
  }

  private move(index: number, at: number): void {
    const order = this.mutableOrder();
    const from = this.positionOf(index);
    if (from >= 0) order.splice(from, 1);
    this.changeOf(index).modified = at;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = order[mid]!;
      const t = this.timestampOf(other);
      if (t < at || (t === at && other < index)) lo = mid + 1;
      else hi = mid;
    }
    order.splice(lo, 0, index);
    this.version++;
  }

  private positionOf(index: number): number {
    const order = this.timeline();
    const time = this.timestampOf(index);
    for (let pos = this.lowerBound(time); pos < order.length; pos++) {
      if (order[pos] === index) return pos;
      if (this.timestampOf(order[pos]!) > time) break;
    }
    return -1;
  }

  private changeOf(index: number): Change {
    let change = this.changes.get(index);
    if (!change) {
      change = { patch: {}, photosVersion: 0 };
      this.changes.set(index, change);
    }
    return change;
  }

  private check(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.count)
      throw new RangeError(`no listing at index ${index} (the feed has ${this.count})`);
  }
}
