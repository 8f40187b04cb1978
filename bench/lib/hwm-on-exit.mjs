/**
 * Preloaded into a bench child (`node --import`): on exit, write the process's peak resident set
 * (`VmHWM` of /proc/self/status, in kB) to the file named by BENCH_HWM_FILE, and the CPU time its
 * threads used (user + system, ms: `process.cpuUsage()`, the whole process) to that name plus `.cpu`. Plain JavaScript on
 * purpose: a TypeScript preload would start Node's type stripping (~17 MB) in a child that runs
 * the built CLI, which never loads it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const target = process.env.BENCH_HWM_FILE;
// Worker threads inherit `--import`: the main thread alone writes (its figures are the process's).
if (target && isMainThread) {
  process.on('exit', () => {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    writeFileSync(target, match?.[1] ?? String(Math.round(process.resourceUsage().maxRSS)));
    const { user, system } = process.cpuUsage();
    writeFileSync(`${target}.cpu`, String(Math.round((user + system) / 1000)));
  });
}
