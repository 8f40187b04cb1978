/**
 * The `feed-sync` the benches measure, and the floors they measure it against: one place for the
 * paths, the build, the image's environment and the report a `sync --json` prints.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { imageEntrypointFlags, imageMallocEnv, imageNodeOptions } from '../../test/helpers/image-env.ts';
import { runChild } from './child.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
/** The built CLI, as the image runs it (`npm run build`: scripts/build.mjs). */
export const BUILT_CLI = resolve(ROOT, 'dist/src/cli/main.js');
/** The command a user runs in a checkout (`npx feed-sync`): the TypeScript sources. */
export const CHECKOUT_CLI = resolve(ROOT, 'bin/feed-sync.js');
/** The floors: a raw parser over a file, or the platform read or written with plain `fetch`. */
export const FLOOR = resolve(ROOT, 'bench/lib/floor-reads.mjs');

/** `npm run build`, so the built CLI measured is this checkout's. */
export function buildCli(): void {
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error(`npm run build failed (${built.status})`);
}

/**
 * How the image starts node, as node arguments: its heap bound (NODE_OPTIONS) and its entrypoint's
 * flags (`--initial-old-space-size`, which NODE_OPTIONS cannot carry), both read from the Dockerfile.
 */
export function imageNodeArgs(): string[] {
  return [...imageNodeOptions().split(/\s+/).filter(Boolean), ...imageEntrypointFlags()];
}

/**
 * The image's environment for a CLI run: its compile cache (NODE_COMPILE_CACHE, which the image fills
 * at build time) and its allocator settings (MALLOC_ARENA_MAX). The benches warm the cache with one
 * run before they measure, as the image's build does.
 */
export function imageEnv(): Record<string, string> {
  const cache = join(tmpdir(), 'feed-sync-bench-compile-cache');
  mkdirSync(cache, { recursive: true });
  return { NODE_COMPILE_CACHE: cache, ...imageMallocEnv() };
}

/** What `feed-sync sync --json` prints, as far as the benches read it. */
export interface SyncReport {
  outcome: string;
  /** SHA-256 of the file when the run reused the last run's reading of it. */
  reusedReading?: string;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  heldDeletes?: number;
  held?: number;
  heldOnPlatform?: number;
  reason?: string;
  /** Where the run's time went (`RunPhases`, ms): absent from a run that made no plan. */
  phases?: { feedMs: number; pagesMs: number; planMs: number; writesMs: number };
}

/** A floor: one whole process of floor-reads.mjs that must report `expected`; its wall time. */
export async function floorMs(args: string[], expected: number): Promise<number> {
  return (await floorRun(args, expected)).ms;
}

/** `floorMs`, with the CPU time the floor's process used (user + system, ms). */
export async function floorRun(args: string[], expected: number): Promise<{ ms: number; cpuMs: number }> {
  const child = await runChild([FLOOR, ...args]);
  if (child.code !== 0 || Number(child.stdout) !== expected)
    throw new Error(`floor ${args[0]}: exit ${child.code}, ${child.stdout} of ${expected}\n${child.stderr}`);
  return { ms: child.ms, cpuMs: child.cpuMs };
}

/**
 * The least time a run could take on this machine's CPUs: the CPU it and the platform used (ms),
 * spread over every CPU at once (both share them here, as a platform on the same host would). A run
 * whose figure is above its goal cannot meet it here by overlapping its work better, only by using
 * less CPU.
 */
export function cpuFloorMs(run: { cpuMs: number; platformCpuMs: number }): number {
  return (run.cpuMs + run.platformCpuMs) / availableParallelism();
}
