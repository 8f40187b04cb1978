import { type Logger, pino } from 'pino';

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

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'feed-sync' },
    },
    (options.destination ?? process.stderr) as pino.DestinationStream,
  );
}

/** A logger that writes nothing, for tests and library use. */
export const silentLogger: Logger = pino({ level: 'silent' });
