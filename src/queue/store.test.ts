import { describe, expect, it } from 'vitest';
import { namespaceOf } from '../state/index.ts';
import { describeStore, redactUrl, storeChoiceOf } from './store.ts';

describe('storeChoiceOf', () => {
  it.each([
    [
      { REDIS_URL: 'redis://r:6379', DATABASE_URL: 'postgres://p/db' },
      { kind: 'redis', url: 'redis://r:6379' },
    ],
    [{ DATABASE_URL: 'postgres://p/db' }, { kind: 'postgres', url: 'postgres://p/db' }],
    [
      { REDIS_URL: '', DATABASE_URL: '' },
      { kind: 'embedded', dir: '.feed-sync/queue' },
    ],
    [{}, { kind: 'embedded', dir: '.feed-sync/queue' }],
  ])('%j → %j', (env, choice) => {
    expect(storeChoiceOf(env, '.feed-sync/')).toEqual(choice);
  });

  it('says which store and where, never a password', () => {
    expect(describeStore({ kind: 'postgres', where: redactUrl('postgres://app:s3cret@db:5432/feeds') })).toBe(
      'Postgres at postgres://app:***@db:5432/feeds',
    );
    expect(describeStore({ kind: 'embedded', where: '/srv/.feed-sync/queue' })).toBe(
      'embedded PGlite at /srv/.feed-sync/queue',
    );
  });
});

describe('namespaceOf', () => {
  it.each([
    ['{feed-sync}', 'feed_sync'],
    ['{feed-sync-test-1a2b3c4d}', 'feed_sync_test_1a2b3c4d'],
    ['{9lives}', 'fs_9lives'],
    ['{}', 'feed_sync'],
  ])('%s → %s', (prefix, namespace) => {
    expect(namespaceOf(prefix)).toBe(namespace);
  });
});
