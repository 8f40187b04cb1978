import type { PlatformClient } from '../api/index.ts';
import { AmbiguousCreateError, canonicalizeRemote } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import { diffListing } from './compare.ts';
import type { DesiredLoader } from './desired.ts';
import { ownerOf, type TagKeys } from './ownership.ts';
import { keyOf } from './plan.ts';
import type { PlannedCreate } from './plan-types.ts';

export interface CreateContext {
  client: PlatformClient;
  chatbot: string;
  keyField: 'MLSNumber' | 'Url';
  feedId: string;
  tags: TagKeys;
  signal?: AbortSignal | undefined;
  /** Creates sent again after a lookup found nothing. Default 3. */
  maxAttempts?: number;
}

export type CreateOutcome = 'created' | 'resolved';

/** A create made: how (sent, or a create in doubt found made), and the listing's platform ID. */
export interface Created {
  outcome: CreateOutcome;
  id: number;
}

/** A record to create as the JSON text its run kept (`DesiredLoader.json`), and the listing it reads as. */
export interface CreateRecord {
  json: string;
  listing(): Listing;
}

/** A run's own record, checked against the listing schema when its feed was read (`CallOptions.listingChecked`). */
export const LISTING_CHECKED = { listingChecked: true } as const;

/**
 * Create one listing, never twice. A create whose outcome is unknown (5xx or timeout after sending)
 * is resolved by listing with the `MLSNumber` filter: if our tagged listing is there it is the one we
 * sent (brought up to date if need be), otherwise the create is sent again.
 */
export async function createListing(
  ctx: CreateContext,
  key: string,
  record: Listing | CreateRecord,
): Promise<Created> {
  const attempts = ctx.maxAttempts ?? 3;
  const kept = 'json' in record ? record : undefined;
  // Given as JSON text, the record is parsed only for the rare create in doubt (compared below).
  let parsed = kept === undefined ? (record as Listing) : undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      // The feed's record, checked against the listing schema when the feed was read: sent as the
      // store kept it where it can be.
      const id =
        kept !== undefined
          ? await ctx.client.createListingJson(ctx.chatbot, kept.json, LISTING_CHECKED)
          : await ctx.client.createListing({ ...parsed!, SerialNumber: ctx.chatbot }, LISTING_CHECKED);
      return { outcome: 'created', id: Number(id) };
    } catch (error) {
      if (!(error instanceof AmbiguousCreateError)) throw error;
      parsed ??= kept!.listing();
      const listing = parsed;
      const found = await lookUp(ctx, key, listing);
      if (found) {
        if (diffListing(listing, found.listing).length > 0) {
          const request = {
            ...listing,
            SerialNumber: ctx.chatbot,
            Key: String(found.id),
            KeyType: 'NewOaks' as const,
          };
          await ctx.client.updateListing(request, LISTING_CHECKED);
        }
        return { outcome: 'resolved', id: found.id };
      }
      if (attempt >= attempts || ctx.signal?.aborted) throw error;
    }
  }
}

async function lookUp(ctx: CreateContext, key: string, listing: Listing) {
  const page = await ctx.client.listListings({
    SerialNumber: ctx.chatbot,
    MLSNumber: listing.MLSNumber,
    PageSize: 100,
  });
  return page.List.map(canonicalizeRemote)
    .filter((r) => keyOf(r.listing, ctx.keyField) === key && ownerOf(r.listing, ctx.tags) === ctx.feedId)
    .sort((a, b) => a.id - b.id)[0];
}

/** A planned create sent: its record as the run's store kept it (JSON text where it can be). */
export function createPlanned(
  ctx: CreateContext,
  loader: DesiredLoader,
  planned: PlannedCreate,
): Promise<Created> {
  const json = loader.json?.(planned.desired);
  const record =
    json === undefined ? loader.load(planned.desired) : { json, listing: () => loader.load(planned.desired) };
  return createListing(ctx, planned.key, record);
}
