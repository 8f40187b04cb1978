import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorkerService } from '../../jobs/worker-service.ts';
import { parseConfig } from '../../src/config/load.ts';
import { createLogger } from '../../src/logger.ts';
import { enqueueFeedSync } from '../../src/queue/enqueue.ts';
import { syncFeed } from '../../src/reconcile/index.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { clearTokenCache } from '../../src/sources/formats/reso/reso-token.ts';
import { redisAvailable } from '../helpers/services.ts';
import { sendJson, withServer } from '../helpers/with-server.ts';
import { cleanupPrefix, REDIS_URL, uniquePrefix, waitFor } from './helpers.ts';

/** Every secret of the config, as the environment gives them. */
const SECRETS = {
  CHATBOT_SECRET_KEY: 'sk-LEAKCHECK-secret-key',
  CHATBOT_SESSION_KEY: 'sess-LEAKCHECK-session-key',
  HOOK_TOKEN: 'T0KEN-LEAKCHECK-hook',
  FEED_PASSWORD: 'pw-LEAKCHECK-basic',
  FEED_TOKEN: 'tok-LEAKCHECK-bearer',
  FEED_HEADER_KEY: 'hdr-LEAKCHECK-header',
  RESO_SECRET: 'cs-LEAKCHECK-reso-client',
};
const ACCESS_TOKEN = 'at-LEAKCHECK-reso-access';
const BASIC = Buffer.from(`feeduser:${SECRETS.FEED_PASSWORD}`).toString('base64');

const CSV = 'MLS #,Status,List Price\nS-1,Active,100000\nS-2,Active,200000\n';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  clearTokenCache();
});

describe.skipIf(!redisAvailable)('secrets in logs', () => {
  it('a full run with failures everywhere logs no secret', async () => {
    const sandbox = await startSandbox({
      secretKey: SECRETS.CHATBOT_SECRET_KEY,
      sessionKey: SECRETS.CHATBOT_SESSION_KEY,
      faults: { error500Rate: 0.3, rate429Rate: 0.2, retryAfterSeconds: 0 },
      seed: 7,
    });
    cleanups.push(() => sandbox.close());
    // Feeds: basic auth answering 503 once, bearer always 500, a header-keyed one, and a RESO API
    // whose token works but whose data always fails.
    const feeds = await withServer((req, res, _body, n) => {
      const path = req.url ?? '';
      if (path.startsWith('/basic.csv')) {
        if (req.headers.authorization !== `Basic ${BASIC}`) return sendJson(res, 401, 'no');
        if (n <= 2) return sendJson(res, 503, 'busy');
        res.writeHead(200, { 'content-type': 'text/csv' }).end(CSV);
        return;
      }
      if (path.startsWith('/bearer.csv')) return sendJson(res, 500, 'broken');
      if (path.startsWith('/header.csv')) {
        if (req.headers['x-api-key'] !== SECRETS.FEED_HEADER_KEY) return sendJson(res, 403, 'no');
        res.writeHead(200, { 'content-type': 'text/csv' }).end('MLS #,Status\nH-1,Bogus\n');
        return;
      }
      if (path.startsWith('/token'))
        return sendJson(res, 200, { access_token: ACCESS_TOKEN, expires_in: 3600 });
      return sendJson(res, 502, 'bad gateway');
    });
    cleanups.push(() => feeds.close());
    const hook = await withServer((_req, res) => sendJson(res, 500, 'hook down'));
    cleanups.push(() => hook.close());

    const prefix = uniquePrefix();
    const csv = (id: string, url: string, auth: string) =>
      [
        `  - id: ${id}`,
        '    chatbot: BOT1',
        `    source: { format: csv, url: "${url}", retries: 1, auth: ${auth} }`,
        '    mapping: { fields: { MLSNumber: "MLS #", Status: Status, SalePrice: List Price } }',
      ].join('\n');
    const text = [
      'api:',
      `  baseUrl: ${sandbox.url}`,
      '  secretKey: ${CHATBOT_SECRET_KEY}',
      '  sessionKey: ${CHATBOT_SESSION_KEY}',
      '  retries: 1',
      'feeds:',
      csv(
        'basic',
        `${feeds.url}/basic.csv`,
        '{ type: basic, username: feeduser, password: "${FEED_PASSWORD}" }',
      ),
      csv(
        'bearer',
        `${feeds.url}/bearer.csv?token=\${FEED_TOKEN}`,
        '{ type: bearer, token: "${FEED_TOKEN}" }',
      ),
      csv(
        'header',
        `${feeds.url}/header.csv`,
        '{ type: header, name: X-Api-Key, value: "${FEED_HEADER_KEY}" }',
      ),
      '  - id: reso',
      '    chatbot: BOT1',
      `    source: { format: reso, url: "${feeds.url}/odata", retries: 0, auth: { type: oauth2, tokenUrl: "${feeds.url}/token", clientId: c1, clientSecret: "\${RESO_SECRET}" } }`,
      '    mapping: { preset: reso }',
      'worker:',
      `  prefix: "${prefix}"`,
      `  alerts: { webhookUrl: "${hook.url}/hooks/\${HOOK_TOKEN}", rejectedShare: 0.1 }`,
    ].join('\n');
    const config = parseConfig(text, { env: SECRETS });

    let logs = '';
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logs += chunk;
        done();
      },
    });
    const logger = createLogger({ level: 'trace', destination });
    const service = await startWorkerService({
      config,
      store: { kind: 'redis', url: REDIS_URL },
      prefix: config.worker.prefix,
      logger,
      sync: syncFeed,
      settings: {
        backoffMs: 10,
        attempts: 2,
        shutdownGraceMs: 100,
        stalledIntervalMs: 1000,
        lockDurationMs: 5000,
      },
    });
    cleanups.push(
      () => cleanupPrefix(config.worker.prefix),
      () => service.close(),
    );

    for (const feed of config.feeds) await enqueueFeedSync(service.queue, { feedId: feed.id });
    await waitFor(
      async () => {
        const done = await service.queue.getJobs(['completed', 'failed']);
        return done.length >= config.feeds.length && hook.requests.length >= 2;
      },
      30_000,
      'every run settled and alerts tried',
    );

    // The run went through failures, retries and failed alerts: the lines that could leak were written.
    expect(logs).toContain('feed fetch retry');
    expect(logs).toContain('job failed');
    expect(logs).toContain('alert webhook failed');
    // The webhook was called with its token, and the feeds with their credentials: the secrets were live.
    expect(hook.requests[0]?.path).toBe(`/hooks/${SECRETS.HOOK_TOKEN}`);
    for (const secret of [...Object.values(SECRETS), ACCESS_TOKEN, BASIC])
      expect(logs, `a log line carries ${secret}`).not.toContain(secret);
    expect(logs).not.toContain(`${hook.url}/hooks`);
  });
});
