import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { parseConfig } from '../../src/config/load.ts';
import { type FeedConfig, feedConfigSchema } from '../../src/config/schema.ts';

/** The one config of the fixture feeds: every fixture that yields listings, as a user would write it. */
export const FIXTURE_CONFIG = resolve(import.meta.dirname, '../../fixtures/feeds/feed-sync.yaml');

/** Read once, synchronously, through the project's own loader (paths resolved against the file's folder). */
const config = parseConfig(readFileSync(FIXTURE_CONFIG, 'utf8'), {
  source: FIXTURE_CONFIG,
  baseDir: dirname(FIXTURE_CONFIG),
});

/** Ids of the feeds in fixtures/feeds/feed-sync.yaml, in file order. */
export const FIXTURE_FEED_IDS: readonly string[] = config.feeds.map((feed) => feed.id);

type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> | undefined }
    : T;

/**
 * What a test changes in a fixture feed, in config language. Objects merge key by key (as a mapping
 * merges over its preset); anything else replaces; `undefined` removes the key, e.g.
 * `{ source: { path: undefined, url } }` serves the fixture over HTTP.
 */
export type FeedOverrides = DeepPartial<z.input<typeof feedConfigSchema>>;

/** The fixture feed `id` as the loader produces it, with `overrides` merged in and validated again. */
export function fixtureFeed(id: string, overrides: FeedOverrides = {}): FeedConfig {
  const feed = config.feeds.find((f) => f.id === id);
  if (!feed)
    throw new Error(`no feed "${id}" in ${FIXTURE_CONFIG} (there are: ${FIXTURE_FEED_IDS.join(', ')})`);
  return feedConfigSchema.parse(merge(feed, overrides));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) delete out[key];
    else out[key] = merge(out[key], value);
  }
  return out;
}
