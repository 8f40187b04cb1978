/**
 * Config, the composition root: one loader (`${VAR}` interpolation, every problem at once with its
 * file:line:column) and one strict schema composed of the stages' own schemas and slices.
 */
export { cronParser } from './cron.ts';
export { DEFAULT_CONFIG_FILE, type EnvSettings, readEnv, readProxyEnv } from './env.ts';
export { findFeed, UnknownFeedError } from './find-feed.ts';
export { ConfigError, loadConfig, parseConfig } from './load.ts';
export { isLoopbackHost } from './loopback.ts';
export type { ChatbotConfig, Config, FeedConfig } from './schema.ts';
export { DEFAULT_PREFIX, feedsAtOnce, type WorkerSettings, workerSettingsOf } from './worker-settings.ts';
