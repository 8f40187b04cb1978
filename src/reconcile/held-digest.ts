import { createHash } from 'node:crypto';
import type { DeleteList } from './plan-types.ts';

/**
 * The held deletes of a plan as one value: the SHA-256 of their keys, sorted, a line each. A run
 * saves it in its report (`heldDeletesDigest`); an override given for it (`SyncOptions.allowDeletes`,
 * the dashboard's button) lets a later run delete only when that run holds the very same listings.
 */
export function heldDeletesDigest(held: DeleteList): string {
  const keys: string[] = [];
  for (let i = 0; i < held.length; i++) {
    const item = held.at(i);
    if (item) keys.push(item.key);
  }
  return keysDigest(keys);
}

/** Keys as one value: the SHA-256 of them sorted, a line each (the replaces a guard held, too). */
export function keysDigest(keys: readonly string[]): string {
  return createHash('sha256')
    .update([...keys].sort().join('\n'))
    .digest('hex');
}
