import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

describe('logger', () => {
  it('never writes a key, whatever object carries it', () => {
    let out = '';
    const destination = new Writable({
      write(chunk, _enc, done) {
        out += chunk;
        done();
      },
    });
    const logger = createLogger({ destination });
    logger.info(
      { api: { baseUrl: 'https://x', secretKey: 'sk-LEAK-1', sessionKey: 'sess-LEAK-2' } },
      'config',
    );
    logger.info(
      { headers: { authorization: 'sk-LEAK-3', 'chatrobot-sessionkey': 'sess-LEAK-4' } },
      'request',
    );
    logger.info({ source: { auth: { password: 'pw-LEAK-5', token: 'tok-LEAK-6' } } }, 'feed');
    logger.info({ worker: { alerts: { webhookUrl: 'https://hooks.example/LEAK-7' } } }, 'settings');
    logger.info({ alerts: { webhookUrl: 'https://hooks.example/LEAK-8' }, webhookUrl: 'LEAK-9' }, 'alerts');
    logger.info({ feed: { source: { auth: { type: 'header', name: 'X-Key', value: 'LEAK-10' } } } }, 'feed');
    logger.info({ feed: { source: { auth: { clientSecret: 'LEAK-11' } } } }, 'reso');
    expect(out).not.toMatch(/LEAK/);
    expect(out.match(/\[redacted\]/g)).toHaveLength(11);
    expect(out).toContain('X-Key');
    expect(out).toContain('https://x');
  });
});
