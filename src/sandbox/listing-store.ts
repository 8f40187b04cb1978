import type { KeyType, SandboxListing as Listing } from './request-schemas.ts';

/** A listing as the sandbox keeps it: the create input plus the platform's integer `ID`. */
export type StoredListing = Listing & { ID: number; SerialNumber: string };

/**
 * The listings of every chatbot, in memory. IDs come from one counter for all chatbots, like a
 * database sequence, so they only grow; each chatbot's array stays in ID order because records are
 * appended on create and edited in place on update.
 */
export class ListingStore {
  #nextId = 1;
  readonly #bySerial = new Map<string, StoredListing[]>();
  /**
   * Every live record by its ID, so an update by ID (`KeyType: NewOaks`, what feed-sync sends) finds
   * its record at once: a scan of the chatbot's records per update made a run that updates 100k
   * listings take ~7 minutes in the sandbox alone.
   */
  readonly #byId = new Map<number, StoredListing>();

  add(serialNumber: string, listing: Listing): StoredListing {
    const stored: StoredListing = { ID: this.#nextId++, SerialNumber: serialNumber, ...listing };
    const records = this.#bySerial.get(serialNumber);
    if (records) records.push(stored);
    else this.#bySerial.set(serialNumber, [stored]);
    this.#byId.set(stored.ID, stored);
    return stored;
  }

  /** The live records of one chatbot, in ID order. Callers that hand them out must copy. */
  all(serialNumber: string): readonly StoredListing[] {
    return this.#bySerial.get(serialNumber) ?? [];
  }

  count(serialNumber: string): number {
    return this.all(serialNumber).length;
  }

  /** Replace the given fields of every record of the chatbot whose key matches. Returns how many. */
  update(serialNumber: string, keyType: KeyType, key: string, patch: Partial<Listing>): number {
    const wanted = normalizeKey(keyType, key);
    const matches =
      keyType === 'NewOaks'
        ? [this.#byId.get(Number(wanted))].filter(
            (record): record is StoredListing =>
              record?.SerialNumber === serialNumber && keyOf(record, keyType) === wanted,
          )
        : this.all(serialNumber).filter((record) => keyOf(record, keyType) === wanted);
    for (const record of matches) Object.assign(record, patch);
    return matches.length;
  }

  /** Delete every record of the chatbot whose key is one of `keys`. Returns how many records went. */
  remove(serialNumber: string, keyType: KeyType, keys: readonly string[]): number {
    const records = this.#bySerial.get(serialNumber);
    if (!records) return 0;
    const wanted = new Set(keys.map((key) => normalizeKey(keyType, key)));
    const kept = records.filter((record) => {
      if (!wanted.has(keyOf(record, keyType))) return true;
      this.#byId.delete(record.ID);
      return false;
    });
    this.#bySerial.set(serialNumber, kept);
    return records.length - kept.length;
  }
}

/** The key of kind `keyType` a record carries. NewOaks is the platform's own ID, in decimal. */
export function keyOf(record: StoredListing, keyType: KeyType): string {
  switch (keyType) {
    case 'NewOaks':
      return String(record.ID);
    case 'MLSNumber':
      return record.MLSNumber;
    case 'URL':
      return record.Url;
  }
}

/** A NewOaks key written with leading zeros (`007`) still names ID 7; other keys match exactly. */
function normalizeKey(keyType: KeyType, key: string): string {
  return keyType === 'NewOaks' && /^\d+$/.test(key) ? String(Number(key)) : key;
}
