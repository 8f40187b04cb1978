import { existsSync, readFileSync } from 'node:fs';

/**
 * The version in feed-sync's package.json. Looked up from this file upwards, because the sources
 * (src/cli/) and the build (dist/src/cli/) sit at different depths below it.
 */
export function packageVersion(from: string | URL = import.meta.url): string {
  let dir = new URL('.', from);
  for (let depth = 0; depth < 6; depth++) {
    const file = new URL('package.json', dir);
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'feed-sync' && pkg.version) return pkg.version;
    }
    dir = new URL('..', dir);
  }
  return 'unknown';
}
