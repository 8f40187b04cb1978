import type { KeySet } from '../../source-types.ts';

/** A 53-bit hash of a string (two 32-bit FNV-1a lanes): two keys of one feed collide about once in 2^53. */
export function hash53(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b ^ c, 2246822507);
  }
  return 4294967296 * ((b >>> 0) & 0x1fffff) + (a >>> 0);
}

/**
 * The keys a sweep found, as sorted hashes: 8 bytes a key whatever its length, so a sweep of a
 * million listings holds 8 MB, not the keys. A collision can only make an absent key look present:
 * that listing is kept one sweep longer, never deleted by mistake.
 */
export class KeyHashSet implements KeySet {
  private hashes = new Float64Array(1024);
  private count = 0;
  private sorted = true;

  add(key: string): void {
    if (this.count === this.hashes.length) {
      const bigger = new Float64Array(this.hashes.length * 2);
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    this.hashes[this.count++] = hash53(key.trim());
    this.sorted = false;
  }

  get size(): number {
    return this.count;
  }

  has(key: string): boolean {
    if (!this.sorted) {
      this.hashes = this.hashes.slice(0, this.count).sort();
      this.sorted = true;
    }
    const wanted = hash53(key.trim());
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.hashes[mid]!;
      if (at === wanted) return true;
      if (at < wanted) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

/**
 * When each key was first read in a replication (its ModificationTimestamp, epoch ms), by its
 * `hash53`: an open-addressed table of two typed arrays, ~32 bytes a key (32 MB at a million) where
 * a Map of boxed numbers held twice that. A collision can only make a key look read before: the
 * watermark then stays lower (a window read again), never higher.
 */
export class FirstSeen {
  private hashes = new Float64Array(1024);
  private times = new Float64Array(1024);
  private count = 0;

  /** The time `key` was first read at, when it was read before; else notes `modified` and gives undefined. */
  firstOf(key: string, modified: number): number | undefined {
    // 0 marks an empty slot: a hash of 0 is taken as 1 (a collision, at worst).
    const hash = hash53(key.trim()) || 1;
    const mask = this.hashes.length - 1;
    for (let slot = hash % this.hashes.length; ; slot = (slot + 1) & mask) {
      const at = this.hashes[slot]!;
      if (at === hash) return this.times[slot];
      if (at === 0) {
        this.hashes[slot] = hash;
        this.times[slot] = modified;
        if (++this.count * 2 > this.hashes.length) this.grow();
        return undefined;
      }
    }
  }

  private grow(): void {
    const { hashes, times } = this;
    this.hashes = new Float64Array(hashes.length * 2);
    this.times = new Float64Array(hashes.length * 2);
    const mask = this.hashes.length - 1;
    for (let i = 0; i < hashes.length; i++) {
      const hash = hashes[i]!;
      if (hash === 0) continue;
      let slot = hash % this.hashes.length;
      while (this.hashes[slot] !== 0) slot = (slot + 1) & mask;
      this.hashes[slot] = hash;
      this.times[slot] = times[i]!;
    }
  }
}
