import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, feedField, silentLogger } from './logger.ts';

/** A destination collecting each line parsed (`lines`) and as written (`texts`). */
function sink(lines: Record<string, unknown>[] = [], texts: string[] = []) {
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        texts.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  return { lines, destination };
}

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

  it('is made on its first line: below its level nothing is written, at it pino writes, children alike', () => {
    const { lines, destination } = sink();
    const logger = createLogger({ level: 'warn', destination });
    expect(logger.level).toBe('warn');
    expect(logger.isLevelEnabled('info')).toBe(false);
    expect(logger.isLevelEnabled('error')).toBe(true);
    logger.info('dropped');
    logger.debug({ secretKey: 'x' }, 'dropped too');
    expect(lines).toEqual([]);
    const child = logger.child({ feedId: 'acme' });
    child.info('dropped by the child');
    child.warn({ token: 'tok-LEAK' }, 'kept');
    logger.error('also kept');
    expect(lines.map((l) => [l.msg, l.feedId, l.token, l.service])).toEqual([
      ['kept', 'acme', '[redacted]', 'feed-sync'],
      ['also kept', undefined, undefined, 'feed-sync'],
    ]);
    // A child may lower its own level, as pino's do.
    const chatty = logger.child({ run: 1 }, { level: 'debug' });
    chatty.debug('a debug line');
    expect(lines.at(-1)).toMatchObject({ msg: 'a debug line', run: 1 });
  });

  it('a level pino does not know is an error at once, not a logger that writes nothing', () => {
    expect(() => createLogger({ level: 'verbose', destination: sink().destination })).toThrow(/verbose/);
  });

  it('the silent logger writes nothing at any level', () => {
    expect(silentLogger.isLevelEnabled('fatal')).toBe(false);
    silentLogger.fatal('nothing');
    silentLogger.child({ a: 1 }).error('nothing');
  });

  it('its level can be set before it is made, and bindings are kept as they were given', () => {
    const { lines, destination } = sink();
    const logger = createLogger({ level: 'warn', destination });
    expect('info' in logger).toBe(true);
    logger.level = 'debug';
    expect(logger.level).toBe('debug');
    const bindings = { feedId: 'acme' };
    const child = logger.child(bindings);
    bindings.feedId = 'changed';
    logger.debug('a debug line');
    child.info('from the child');
    expect(logger.level).toBe('debug');
    expect(lines.map((l) => [l.msg, l.feedId])).toEqual([
      ['a debug line', undefined],
      ['from the child', 'acme'],
    ]);
    expect(() => {
      logger.level = 'verbose';
    }).toThrow(/verbose/);
  });
});

describe('feedField', () => {
  it("names the feed once: not again on a feed's own child logger (a worker job's)", async () => {
    const lines: Record<string, unknown>[] = [];
    const texts: string[] = [];
    const { destination } = sink(lines, texts);
    const root = createLogger({ destination });
    const job = root.child({ feed: 'wfeed', job: '4' });
    job.info(feedField(job, 'wfeed'), 'on the job logger');
    root.info(feedField(root, 'wfeed'), 'on the command logger');
    await new Promise((done) => setImmediate(done));
    const [onJob] = texts;
    expect(onJob!.match(/"feed":/g)).toHaveLength(1);
    expect(lines[1]).toMatchObject({ feed: 'wfeed' });
    expect(feedField(undefined, 'x')).toEqual({ feed: 'x' });
    expect(feedField(silentLogger, 'x')).toEqual({ feed: 'x' });
  });
});
