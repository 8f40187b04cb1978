import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, loadConfig } from '../config/index.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/demo/', import.meta.url));
const FILES = ['feed-sync.yaml', 'harbor-homes.csv', 'city-rentals.csv'];

/**
 * The demo's files copied into `dir` (files already there are kept: someone may be editing them),
 * and its config pointed at the sandbox. Shared by `demo` and `start`.
 */
export async function loadDemoConfig(dir: string, sandboxUrl: string, keep = false): Promise<Config> {
  await mkdir(dir, { recursive: true });
  for (const file of FILES) {
    const target = join(dir, file);
    if (!keep || !existsSync(target)) await copyFile(join(FIXTURES, file), target);
  }
  const loaded = await loadConfig(join(dir, 'feed-sync.yaml'), {});
  return { ...loaded, api: { ...loaded.api, baseUrl: sandboxUrl } };
}

/** The demo's next morning: harbor-homes.csv as the agency exports it a day later. */
export async function useNextDayFeed(dir: string): Promise<void> {
  await copyFile(join(FIXTURES, 'harbor-homes.next-day.csv'), join(dir, 'harbor-homes.csv'));
}
