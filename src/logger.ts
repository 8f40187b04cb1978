import { createRequire } from 'node:module';
import type { Logger, pino as Pino } from 'pino';

/**
 * Paths pino removes from every log line. Keys are never logged, whatever object carries them:
 * config sections, request options, headers.
 */
export const REDACT_PATHS = [
  'secretKey',
  '*.secretKey',
  '*.*.secretKey',
  'sessionKey',
  '*.sessionKey',
  '*.*.sessionKey',
  'password',
  '*.password',
  '*.*.password',
  'token',
  '*.token',
  '*.*.token',
  'clientSecret',
  '*.clientSecret',
  '*.*.clientSecret',
  'authorization',
  '*.authorization',
  '*.*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'Authorization',
  '*.Authorization',
  '*.headers.Authorization',
  // The alert webhook URL carries its token.
  'webhookUrl',
  '*.webhookUrl',
  '*.*.webhookUrl',
  '*.*.*.webhookUrl',
  // Feed HTTP auth (`source.auth`): basic password, bearer token, custom header value, OAuth2 secret.
  'auth.value',
  '*.auth.value',
  '*.*.auth.value',
  '*.*.*.auth.value',
  '*.*.*.password',
  '*.*.*.token',
  '*.*.*.clientSecret',
  '*.*.*.secretKey',
  '*.*.*.sessionKey',
  '["chatrobot-sessionkey"]',
  '*["chatrobot-sessionkey"]',
  '*.headers["chatrobot-sessionkey"]',
];

export type { Logger };

export interface LoggerOptions {
  level?: string;
  /** Where lines go; default stderr so stdout stays the command's output. */
  destination?: NodeJS.WritableStream;
}

/** pino's levels, by value: a line is written when its level's value is at least the logger's. */
const LEVEL_VALUES: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

let pinoLoaded: typeof Pino | undefined;
/** pino, loaded on the first line written (~13 ms of a start that writes none: docs/performance.md). */
function loadPino(): typeof Pino {
  pinoLoaded ??= (createRequire(import.meta.url)('pino') as { pino: typeof Pino }).pino;
  return pinoLoaded;
}

/** The value below which lines are dropped; undefined for a level pino does not know. */
function thresholdOf(level: string): number | undefined {
  return level === 'silent' ? Number.POSITIVE_INFINITY : LEVEL_VALUES[level];
}

/**
 * The logger `make` returns, made when a line at or above `level` is first written (or anything
 * else of it is read): a command whose level lets no line through never loads pino. Lines below the
 * level are dropped here as pino would drop them; `level` may be read and set before; a child is as
 * lazy as its parent, with its bindings as they were when it was asked for.
 */
function deferred(make: () => Logger, initial: string): Logger {
  let level = initial;
  let threshold = thresholdOf(level);
  // A level pino does not know: made now, so pino's own error says so at once.
  if (threshold === undefined) return make();
  let made: Logger | undefined;
  const real = () => {
    if (made === undefined) {
      made = make();
      if (made.level !== level) made.level = level;
    }
    return made;
  };
  const dropped = () => {};
  const own = new Set(['level', 'isLevelEnabled', 'child', ...Object.keys(LEVEL_VALUES)]);
  return new Proxy({} as Logger, {
    get(_, prop) {
      if (made === undefined && typeof prop === 'string') {
        const value = LEVEL_VALUES[prop];
        if (value !== undefined && value < (threshold as number)) return dropped;
        if (prop === 'level') return level;
        if (prop === 'isLevelEnabled')
          return (name: string) => (LEVEL_VALUES[name] ?? 0) >= (threshold as number);
        if (prop === 'child')
          return (bindings: Pino.Bindings, options?: Pino.ChildLoggerOptions) => {
            const copied = { ...bindings };
            return deferred(() => real().child(copied, options), options?.level ?? level);
          };
      }
      const logger = real();
      const value = Reflect.get(logger, prop, logger);
      return typeof value === 'function' ? value.bind(logger) : value;
    },
    set(_, prop, value) {
      if (made === undefined && prop === 'level' && typeof value === 'string') {
        const next = thresholdOf(value);
        if (next !== undefined) {
          level = value;
          threshold = next;
          return true;
        }
      }
      const logger = real();
      return Reflect.set(logger, prop, value, logger);
    },
    has(_, prop) {
      return (made === undefined && typeof prop === 'string' && own.has(prop)) || Reflect.has(real(), prop);
    },
  });
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  return deferred(
    () =>
      loadPino()(
        {
          level,
          redact: { paths: REDACT_PATHS, censor: '[redacted]' },
          base: { service: 'feed-sync' },
        },
        (options.destination ?? process.stderr) as Pino.DestinationStream,
      ),
    level,
  );
}

/** A logger that writes nothing, for tests and library use (it never loads pino). */
export const silentLogger: Logger = deferred(() => loadPino()({ level: 'silent' }), 'silent');

/**
 * `{ feed: feedId }` for a log line, unless `logger` is a feed's own child that says it already (the
 * worker's job logger binds `feed` and `job`): a line named its feed twice, `"feed":"a",…,"feed":"a"`.
 */
export function feedField(logger: Logger | undefined, feedId: string): { feed?: string } {
  const bound = (logger as { bindings?: () => Record<string, unknown> } | undefined)?.bindings?.();
  return bound?.feed === undefined ? { feed: feedId } : {};
}
