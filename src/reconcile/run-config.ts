import type { IngestSpec } from '../ingest/index.ts';
import type { GonePolicy } from './plan-types.ts';

/**
 * The part of a feed's config a run reads (src/config validates the whole feed entry and fills in
 * the defaults): what ingestion reads, the chatbot it syncs into and the plan's policy.
 */
export interface RunFeedSpec extends IngestSpec {
  /** The chatbot's id (serial number). */
  chatbot: string;
  /** `tagged`: only listings carrying this feed's ownership tag are ours. `all`: every listing of the chatbot. */
  ownership: 'tagged' | 'all';
  /** Adopt a foreign listing whose key is in the feed instead of creating a duplicate. */
  adopt: boolean;
  /** Former ids of the feed: listings tagged with one are its own (retagged on their next run). */
  adoptFrom?: readonly string[];
  /** Refuse to delete more than this share of the feed's owned listings in one run. */
  maxDeleteShare: number;
  /** Scheduled runs may skip an unchanged feed, but compare with the platform at least this often (hours). */
  fullCompareEveryHours: number;
  /** What a listing that leaves the feed becomes: deleted or marked Sold, after a grace. */
  gone: GonePolicy;
  /** A value the feed stops sending: cleared on the platform (default) or kept. */
  unsetFields?: 'clear' | 'keep';
}

/** The part of the whole config a run reads besides its feed. */
export interface RunConfig {
  /**
   * The config's feeds (their ids): a listing the feed skips because another feed id tags it is
   * said to be a renamed feed's when no feed has that id (`adoptFrom`). Unknown when left out.
   */
  feeds?: readonly { readonly id: string }[];
  /** ExtensionColumn key that names the feed owning a listing. */
  ownerKey: string;
  api: {
    /** RealEstateList page size. */
    pageSize: number;
    /** Max requests in flight to the platform. */
    concurrency: number;
    /** Keys per RealEstateDelete call. */
    deleteBatchSize: number;
  };
}
