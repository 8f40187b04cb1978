import {
  canonicalizeRemote,
  type ListRequest,
  type PlatformClient,
  type RemoteListing,
} from '../api/index.ts';
import { keyOf, ownerOf, type TagKeys } from '../reconcile/index.ts';
import type { PlatformPart, PlatformRecord } from './types.ts';

/** Pages read at most per filter: a lookup is a few list calls, never a scan of a large chatbot. */
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
 * record carries and keeps the listings whose Url is the key. Only key matches are kept, read as the
 * plan reads keys (trimmed), whatever the filter's own matching is; where the first filter finds
 * none, the city's is tried, then no filter: a platform that filters by the exact text does not
 * find `MS-19 ` by `MS-19`, which a sync takes for the same listing. Reads only.
 */
export async function lookupRemote(client: PlatformClient, input: LookupInput): Promise<Lookup> {
  const filters = filtersOf(input);
  if ('reason' in filters) return { part: { lookedUp: false, reason: filters.reason }, remote: [] };
  const remote: RemoteListing[] = [];
  const tried: string[] = [];
  let calls = 0;
  let truncated = false;
  for (const filter of filters) {
    tried.push(filter.by);
    truncated = false;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const request: ListRequest = {
        SerialNumber: input.chatbot,
        ...filter.request,
        PageNumber: page,
        PageSize: pageSizeOf(filter, input.pageSize),
      };
      const answer = await client.listListings(request, input.signal ? { signal: input.signal } : {});
      calls++;
      for (const record of answer.List) {
        const listing = canonicalizeRemote(record);
        if (keyOf(listing.listing, input.keyField) === input.key) remote.push(listing);
      }
      const seen = (page - 1) * pageSizeOf(filter, input.pageSize) + answer.List.length;
      const total = answer.VirtualCount ?? seen;
      if (answer.List.length === 0 || seen >= total) break;
      if (page === MAX_PAGES) truncated = true;
    }
    // Unfiltered: said as what was read.
    if (unfiltered(filter))
      tried[tried.length - 1] = truncated
        ? `no filter (the first ${MAX_PAGES * pageSizeOf(filter, input.pageSize)} listings read)`
        : 'no filter (every listing read)';
    if (remote.length > 0) break;
  }
  const records = remote.sort((a, b) => a.id - b.id).map((r) => platformRecord(r, input.tags));
  const by = tried.join(', then ');
  // Not found, and the chatbot read only in part: its absence is not known.
  const incomplete = records.length === 0 && truncated;
  return {
    part: {
      lookedUp: true,
      by,
      calls,
      records,
      ...(truncated && !incomplete ? { truncated } : {}),
      ...(incomplete ? { incomplete } : {}),
    },
    remote,
  };
}

type Filter = { request: Partial<ListRequest>; by: string };

/** Pages of the unfiltered read: small, since a lookup is a look, not a scan (a dashboard GET). */
const UNFILTERED_PAGE_SIZE = 100;

function pageSizeOf(filter: Filter, pageSize: number): number {
  return unfiltered(filter) ? Math.min(pageSize, UNFILTERED_PAGE_SIZE) : pageSize;
}

function unfiltered(filter: Filter): boolean {
  return filter.request.MLSNumber === undefined && filter.request.CityName === undefined;
}

/** The filters to try, in order: the key's own (or the MLSNumber's), then the city's. */
function filtersOf(input: LookupInput): Filter[] | { reason: string } {
  const filters: Filter[] = [];
  const mlsNumber = input.hints?.mlsNumber?.trim();
  const city = input.hints?.city?.trim();
  const then = input.keyField === 'Url' ? ', then its Url' : '';
  if (input.keyField === 'MLSNumber')
    filters.push({ request: { MLSNumber: input.key }, by: `MLSNumber ${input.key}` });
  else if (mlsNumber)
    filters.push({ request: { MLSNumber: mlsNumber }, by: `MLSNumber ${mlsNumber}${then}` });
  if (city)
    filters.push({
      request: { CityName: city },
      by: `CityName ${city}${then}`,
    });
  // Last, no filter: a small chatbot is read whole in a page or two, a larger one only in part
  // (`incomplete`: the plan reads every page).
  if (filters.length > 0) filters.push({ request: {}, by: 'none' });
  if (filters.length > 0) return filters;
  return {
    reason:
      'the feed is keyed by Url and the list operation has no Url filter; without an MLSNumber or a city from the feed record, finding it would mean reading every listing of the chatbot (`feed-sync plan` does)',
  };
}

function platformRecord(remote: RemoteListing, tags: TagKeys): PlatformRecord {
  const owner = ownerOf(remote.listing, tags);
  return { id: remote.id, ...(owner ? { owner } : {}), listing: { ...remote.listing } };
}
