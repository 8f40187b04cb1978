import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createAlerter, createRedisIncidentStore } from '../../src/alerts/index.ts';
import { silentLogger } from '../../src/logger.ts';
import { REDIS_URL, redisAvailable, testPrefix } from '../helpers/services.ts';
import { sendJson, type TestServer, withServer } from '../helpers/with-server.ts';
import { cleanupPrefix, fakeReport } from '../worker/helpers.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!redisAvailable)('alert webhook', () => {
  it('a 5xx answer is a post not sent (the next occurrence posts again); a redirect is followed', async () => {
    const statuses = [500, 302, 200];
    const hook: TestServer = await withServer((_req, res, _body, n) =>
      sendJson(res, statuses[n - 1] ?? 200, { ok: n === 3 }, n === 2 ? { location: '/elsewhere' } : {}),
    );
    const redis = new Redis(REDIS_URL);
    const prefix = testPrefix();
    cleanups.push(
      () => hook.close(),
      () => redis.quit(),
      () => cleanupPrefix(prefix),
    );
    const alerter = createAlerter({
      webhookUrl: `${hook.url}/hook`,
      rejectedShare: 0.5,
      incidents: createRedisIncidentStore(redis, prefix),
      logger: silentLogger,
    });
    const failed = fakeReport('a', { outcome: 'failed', reason: 'the feed is gone' });
    for (let i = 0; i < 4; i++) await alerter.onReport(failed);
    // 1st report: 500, not sent, the incident forgotten. 2nd: a 302, followed, 200 at /elsewhere:
    // sent, the incident recorded. 3rd and 4th: the incident is open, nothing is posted.
    expect(hook.requests.map((r) => r.path)).toEqual(['/hook', '/hook', '/elsewhere']);
    expect(await redis.hkeys(`${prefix}:alerts:open`)).toEqual(['a:failed']);
  });
});
