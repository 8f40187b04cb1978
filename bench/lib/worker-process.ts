/** A `feed-sync worker` process of the fleet bench: its log lines, its peak RSS file, its CPU time. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageMallocEnv } from '../../test/helpers/image-env.ts';
import { REDIS_URL } from './stores.ts';

const PRELOAD = join(import.meta.dirname, 'hwm-on-exit.mjs');

export interface WorkerProcess {
  child: ChildProcess;
  hwm: string;
  lines: string[];
}

export function startWorker(
  options: { cli: string; nodeOptions: readonly string[] },
  config: string,
  dir: string,
  i: number,
): WorkerProcess {
  const hwm = join(dir, `hwm-${i}`);
  const child = spawn(
    process.execPath,
    [...options.nodeOptions, '--import', PRELOAD, options.cli, 'worker', '-c', config],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        TMPDIR: dir,
        REDIS_URL,
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
        ...imageMallocEnv(),
        BENCH_HWM_FILE: hwm,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const lines: string[] = [];
  let pending = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    pending += d;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  return { child, hwm, lines };
}

/** CPU time a process has used, ms (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
