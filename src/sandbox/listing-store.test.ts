import { describe, expect, it } from 'vitest';
import { ListingStore } from './listing-store.ts';
import type { SandboxListing } from './request-schemas.ts';

const listing = (mls: string, extra: Partial<SandboxListing> = {}) =>
  ({ MLSNumber: mls, Url: `https://x.example/${mls}`, ...extra }) as SandboxListing;

describe('ListingStore.update', () => {
  it('updates by ID (NewOaks) the one record of that chatbot, leading zeros allowed', () => {
    const store = new ListingStore();
    const a = store.add('BOT', listing('A'));
    const b = store.add('BOT', listing('B'));
    expect(store.update('BOT', 'NewOaks', String(b.ID), { City: 'Springfield' })).toBe(1);
    expect(store.update('BOT', 'NewOaks', `00${a.ID}`, { City: 'Shelbyville' })).toBe(1);
    expect(store.all('BOT').map((r) => [r.MLSNumber, r.City])).toEqual([
      ['A', 'Shelbyville'],
      ['B', 'Springfield'],
    ]);
  });

  it("never updates another chatbot's record, a removed one, or a key that is no ID", () => {
    const store = new ListingStore();
    const mine = store.add('BOT', listing('A'));
    const theirs = store.add('OTHER', listing('B'));
    expect(store.update('BOT', 'NewOaks', String(theirs.ID), { City: 'X' })).toBe(0);
    expect(store.update('BOT', 'NewOaks', `${mine.ID}.0`, { City: 'X' })).toBe(0);
    expect(store.update('BOT', 'NewOaks', `${mine.ID}e0`, { City: 'X' })).toBe(0);
    expect(store.remove('BOT', 'NewOaks', [String(mine.ID)])).toBe(1);
    expect(store.update('BOT', 'NewOaks', String(mine.ID), { City: 'X' })).toBe(0);
    expect(store.all('OTHER')[0]?.City).toBeUndefined();
  });

  it('updates every record of a repeated MLS number, as the platform does', () => {
    const store = new ListingStore();
    store.add('BOT', listing('A'));
    store.add('BOT', listing('A'));
    store.add('BOT', listing('B'));
    expect(store.update('BOT', 'MLSNumber', 'A', { City: 'Twice' })).toBe(2);
    expect(store.all('BOT').map((r) => r.City)).toEqual(['Twice', 'Twice', undefined]);
  });
});
