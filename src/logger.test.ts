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
    expect(out).not.toMatch(/LEAK/);
    expect(out.match(/\[redacted\]/g)).toHaveLength(6);
    expect(out).toContain('https://x');
  });
});
