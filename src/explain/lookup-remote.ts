import {
  canonicalizeRemote,
  type ListRequest,
  type PlatformClient,
  type RemoteListing,
} from '../api/index.ts';
import { keyOf, ownerOf, type TagKeys } from '../reconcile/index.ts';
import type { PlatformPart, PlatformRecord } from './types.ts';

/** Pages read at most: a lookup is one or two list calls, never a scan of the chatbot. */
const MAX_PAGES = 2;

export interface LookupInput {
  chatbot: string;
  key: string;
  keyField: 'MLSNumber' | 'Url';
  pageSize: number;
  tags: TagKeys;
  /**
   * For a feed keyed by Url (the list has no Url filter): the feed record's MLSNumber, else its
   * city, narrow the list to a page or two, and the Url is then matched on what comes back.
   */
  hints?: { mlsNumber?: string | undefined; city?: string | undefined };
  signal?: AbortSignal;
}

export interface Lookup {
  part: PlatformPart;
  /** The records found, as the plan reads them. */
  remote: RemoteListing[];
}

/**
 * The chatbot's listings with a key, read live with the list operation's filter. A feed keyed by
 * MLSNumber filters by it; a feed keyed by Url filters by the MLSNumber (or else the city) its feed
 * record carries and keeps the listings whose Url is the key. Only exact key matches are kept,
 * whatever the filter's own matching is. Reads only.
 */
export async function lookupRemote(client: PlatformClient, input: LookupInput): Promise<Lookup> {
  const filter = filterOf(input);
  if ('reason' in filter) return { part: { lookedUp: false, reason: filter.reason }, remote: [] };
  const remote: RemoteListing[] = [];
  let calls = 0;
  let truncated = false;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const request: ListRequest = {
      SerialNumber: input.chatbot,
      ...filter.request,
      PageNumber: page,
      PageSize: input.pageSize,
    };
    const answer = await client.listListings(request, input.signal ? { signal: input.signal } : {});
    calls++;
    for (const record of answer.List) {
      const listing = canonicalizeRemote(record);
      if (keyOf(listing.listing, input.keyField) === input.key) remote.push(listing);
    }
    const seen = (page - 1) * input.pageSize + answer.List.length;
    const total = answer.VirtualCount ?? seen;
    if (answer.List.length === 0 || seen >= total) break;
    if (page === MAX_PAGES) truncated = true;
  }
  const records = remote.sort((a, b) => a.id - b.id).map((r) => platformRecord(r, input.tags));
  return {
    part: { lookedUp: true, by: filter.by, calls, records, ...(truncated ? { truncated } : {}) },
    remote,
  };
}

function filterOf(input: LookupInput): { request: Partial<ListRequest>; by: string } | { reason: string } {
  if (input.keyField === 'MLSNumber')
    return { request: { MLSNumber: input.key }, by: `MLSNumber ${input.key}` };
  const mlsNumber = input.hints?.mlsNumber?.trim();
  if (mlsNumber) return { request: { MLSNumber: mlsNumber }, by: `MLSNumber ${mlsNumber}, then its Url` };
  const city = input.hints?.city?.trim();
  if (city) return { request: { CityName: city }, by: `CityName ${city}, then its Url` };
  return {
    reason:
      'the feed is keyed by Url and the list operation has no Url filter; without an MLSNumber or a city from the feed record, finding it would mean reading every listing of the chatbot (`feed-sync plan` does)',
  };
}

function platformRecord(remote: RemoteListing, tags: TagKeys): PlatformRecord {
  const owner = ownerOf(remote.listing, tags);
  return { id: remote.id, ...(owner ? { owner } : {}), listing: { ...remote.listing } };
}
