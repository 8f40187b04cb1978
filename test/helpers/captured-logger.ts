import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logger.ts';

/** The project's logger (redaction and all), writing its JSON lines into `lines` instead of stdout. */
export function capturedLogger(level = 'info'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    level,
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  return { logger, lines };
}
