/**
 * The sandbox in a process of its own, as the real platform is: its CPU work (serializing pages)
 * then does not run on the event loop being measured. Controlled over its inspection routes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import type { SandboxConfigure } from '../../src/sandbox/index.ts';

const CLI = resolve(import.meta.dirname, '../../src/cli/main.ts');

export interface SandboxProcess {
  url: string;
  configure(change: SandboxConfigure): Promise<void>;
  seed(serialNumber: string, listings: readonly Listing[]): Promise<void>;
  close(): Promise<void>;
  /** The sandbox's CPU time so far (user + system, ms), read from /proc; undefined where there is none. */
  cpuMs(): number | undefined;
}

export async function startSandboxProcess(): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '-c', '/nonexistent'], {
    // Its stderr (the auth line it starts with, any error) is kept for a failure's message, not printed
    // into the bench's table.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CHATBOT_SECRET_KEY: '', CHATBOT_SESSION_KEY: '' },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-4096);
  });
  const url = await new Promise<string>((done, fail) => {
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      text += d;
      const match = /listening on (\S+)/.exec(text);
      if (match?.[1]) done(match[1]);
    });
    child.once('exit', (code) => fail(new Error(`sandbox exited (${code})\n${stderr}`)));
  });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  };
  return {
    url,
    configure: (change) => post('/__sandbox/configure', change),
    async seed(serialNumber, listings) {
      for (let i = 0; i < listings.length; i += 5000)
        await post('/__sandbox/seed', { serialNumber, listings: listings.slice(i, i + 5000) });
    },
    cpuMs: () => processCpuMs(child.pid),
    async close() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** A process's user + system CPU (ms) from /proc/PID/stat (Linux); undefined elsewhere. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) in parentheses: utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : undefined;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;
