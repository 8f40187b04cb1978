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

/**
 * The node flags of the image's ENTRYPOINT (those Node does not take from NODE_OPTIONS), read from
 * the Dockerfile: what stands between `node` and `dist/src/cli/main.js`.
 */
export function imageEntrypointFlags(): string[] {
  const match = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(readFileSync(DOCKERFILE, 'utf8'));
  if (!match?.[1]) throw new Error(`no ENTRYPOINT [...] in ${DOCKERFILE}`);
  const words = JSON.parse(match[1]) as string[];
  const node = words.indexOf('node');
  const main = words.indexOf('dist/src/cli/main.js');
  if (node === -1 || main < node)
    throw new Error(`ENTRYPOINT does not run node dist/src/cli/main.js: ${match[1]}`);
  return words.slice(node + 1, main);
}

/**
 * The image's allocator settings (`MALLOC_ARENA_MAX`, glibc's), read from the Dockerfile's ENV: a
 * process that runs as the image runs with them (its peak RSS depends on them).
 */
export function imageMallocEnv(): Record<string, string> {
  const match = /^\s*(?:ENV\s+)?MALLOC_ARENA_MAX=(\d+)/m.exec(readFileSync(DOCKERFILE, 'utf8'));
  if (!match?.[1]) throw new Error(`no MALLOC_ARENA_MAX=… in ${DOCKERFILE}`);
  return { MALLOC_ARENA_MAX: match[1] };
}
