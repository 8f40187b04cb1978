import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const DOCKERFILE = resolve(import.meta.dirname, '../../Dockerfile');

/**
 * The image's NODE_OPTIONS (its heap bound), read from the Dockerfile, so what the tests and the
 * benches run as "the image" never disagrees with it.
 */
export function imageNodeOptions(): string {
  const match = /^\s*(?:ENV\s+)?NODE_OPTIONS="([^"]*)"/m.exec(readFileSync(DOCKERFILE, 'utf8'));
  if (!match?.[1]) throw new Error(`no NODE_OPTIONS="…" in ${DOCKERFILE}`);
  return match[1];
}
