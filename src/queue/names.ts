/**
 * Redis key prefix of the queue and of everything the worker keeps. The braces make it a Redis
 * Cluster hash tag: every key lands in one slot, which BullMQ's multi-key scripts need.
 */
export const DEFAULT_PREFIX = '{feed-sync}';
/** The one queue: both job kinds run on it, so one worker pool and one UI page serve both. */
export const QUEUE_NAME = 'feed-sync';

export const SYNC_FEED = 'sync-feed';
export const PUSH_SETTINGS = 'push-settings';

/** One run per feed / per chatbot at a time: the deduplication id and the scheduler id. */
export const feedKey = (feedId: string) => `${SYNC_FEED}:${feedId}`;
export const chatbotKey = (chatbot: string) => `${PUSH_SETTINGS}:${chatbot}`;
