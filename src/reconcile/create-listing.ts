import type { PlatformClient } from '../api/index.ts';
import { AmbiguousCreateError, canonicalizeRemote } from '../api/index.ts';
import type { Listing } from '../normalize/index.ts';
import { diffListing } from './compare.ts';
import { ownerOf, type TagKeys } from './ownership.ts';
import { keyOf } from './plan.ts';

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
  listing: Listing,
): Promise<CreateOutcome> {
  const attempts = ctx.maxAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      // The feed's record, checked against the listing schema when the feed was read.
      await ctx.client.createListing({ ...listing, SerialNumber: ctx.chatbot }, LISTING_CHECKED);
      return 'created';
    } catch (error) {
      if (!(error instanceof AmbiguousCreateError)) throw error;
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
        return 'resolved';
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
