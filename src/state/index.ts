export { assertStateWritable, createFileStateStore } from './file-store.ts';
export { createRedisStateStore } from './redis-store.ts';
export { createMemoryStateStore, type FeedState, mergeFeedState, type StateStore } from './state-store.ts';
