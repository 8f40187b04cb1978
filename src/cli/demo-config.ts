import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, loadConfig } from '../config/index.ts';
import { CliExit } from './exit-codes.ts';

const FILES = ['feed-sync.yaml', 'harbor-homes.csv', 'city-rentals.csv'];

/** Is `file` feed-sync's package.json (not another project's fixtures in a folder above)? */
function isFeedSync(file: URL): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'feed-sync';
  } catch {
    return false;
  }
}

/**
 * The checkout's fixtures/demo/, looked up from this file upwards: the sources (src/cli/) and the
 * built bundle (dist/src/cli/chunks/) sit at different depths below it. The image ships no fixtures:
 * there the demo says so in one line.
 */
export function demoFixtures(from: string | URL = import.meta.url): string {
  let dir = new URL('.', from);
  for (let depth = 0; depth < 6; depth++) {
    const folder = new URL('fixtures/demo/', dir);
    if (existsSync(new URL('feed-sync.yaml', folder)) && isFeedSync(new URL('package.json', dir)))
      return fileURLToPath(folder);
    dir = new URL('..', dir);
  }
  throw new CliExit(
    "the demo's files (fixtures/demo/) are not in this installation: run the demo from a checkout of feed-sync (npm ci && npm run demo)",
  );
}

/**
 * The demo's files copied into `dir` (files already there are kept: someone may be editing them),
 * and its config pointed at the sandbox. Shared by `demo` and `start`.
 */
export async function loadDemoConfig(dir: string, sandboxUrl: string, keep = false): Promise<Config> {
  await mkdir(dir, { recursive: true });
  for (const file of FILES) {
    const target = join(dir, file);
    if (!keep || !existsSync(target)) await copyFile(join(demoFixtures(), file), target);
  }
  const loaded = await loadConfig(join(dir, 'feed-sync.yaml'), {});
  return { ...loaded, api: { ...loaded.api, baseUrl: sandboxUrl } };
}

/** The demo's next morning: harbor-homes.csv as the agency exports it a day later. */
export async function useNextDayFeed(dir: string): Promise<void> {
  await copyFile(join(demoFixtures(), 'harbor-homes.next-day.csv'), join(dir, 'harbor-homes.csv'));
}
