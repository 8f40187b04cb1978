/**
 * Run one measurement in a child process and read its peak RSS (VmHWM) as the kernel counted it.
 * The child is started with `--import` of hwm-on-exit.mjs, which writes its VmHWM to a file as the
 * process exits: a bench then measures any command, the real CLI included, without changing it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ChildResult {
  /** Wall time from spawn to exit, ms. */
  ms: number;
  /** Peak resident set of the child (VmHWM), MB. */
  peakMb: number;
  /** CPU time the child's threads used (user + system), ms; NaN when it died before its exit hook. */
  cpuMs: number;
  code: number;
  stdout: string;
  stderr: string;
}

const PRELOAD = join(import.meta.dirname, 'hwm-on-exit.mjs');

/** `node [--import hwm] ...args` with Node 24 (the one running the bench). */
export async function runChild(
  args: readonly string[],
  options: { env?: Record<string, string>; nodeOptions?: readonly string[] } = {},
): Promise<ChildResult> {
  const dir = mkdtempSync(join(tmpdir(), 'feed-sync-bench-hwm-'));
  const hwmFile = join(dir, 'hwm');
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), '--import', PRELOAD, ...args], {
    env: { ...process.env, ...options.env, BENCH_HWM_FILE: hwmFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number>((done, fail) => {
    child.once('error', fail);
    child.once('close', (c) => done(c ?? 1));
  });
  const ms = performance.now() - started;
  let peakMb = Number.NaN;
  let cpuMs = Number.NaN;
  try {
    peakMb = Number(readFileSync(hwmFile, 'utf8')) / 1024;
    cpuMs = Number(readFileSync(`${hwmFile}.cpu`, 'utf8'));
  } catch {
    // The child died before its exit hook: the figure is missing, the caller sees NaN.
  }
  rmSync(dir, { recursive: true, force: true });
  return { ms, peakMb, cpuMs, code, stdout, stderr };
}
