import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { letGoOfSignals, stillStarting } from '../../src/cli/early-signals.ts';
import { startEarly } from '../../src/cli/main.ts';
import { main } from '../../src/cli/program.ts';

const NODE = join(process.cwd(), 'node_modules/.bin/node');
const EARLY = join(process.cwd(), 'src/cli/early-signals.ts');

/**
 * A process that holds the early signals, then (`started`) begins a command, which (`handles`)
 * installs its own SIGINT handler; interrupted once ready. Its exit code, signal and stderr.
 */
async function interrupted(started: boolean, handles: boolean) {
  const script = `
    import { commandStarted, holdEarlySignals } from ${JSON.stringify(EARLY)};
    holdEarlySignals();
    ${started ? 'commandStarted();' : ''}
    ${handles ? "process.on('SIGINT', () => { process.stderr.write('the command stops\\n'); process.exit(7); });" : ''}
    process.stdout.write('ready\\n');
    setTimeout(() => {}, 20_000);
  `;
  const child = spawn(NODE, ['--input-type=module', '-e', script]);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGINT');
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  return { code, signal, stderr };
}

describe('Ctrl-C while the CLI starts', () => {
  it('says so in one line and exits 130, where Node would end the process without a word', async () => {
    const { code, stderr } = await interrupted(false, false);
    expect(code).toBe(130);
    // Not a terminal: no empty line before it.
    expect(stderr).toBe('feed-sync: stopped (SIGINT) while starting: nothing was read or written\n');
  });

  it('is the command’s once its action begins: its own handler answers, or it ends saying so', async () => {
    const handled = await interrupted(true, true);
    expect([handled.code, handled.stderr]).toEqual([7, 'the command stops\n']);
    const unhandled = await interrupted(true, false);
    expect([unhandled.code, unhandled.stderr]).toEqual([130, 'feed-sync: interrupted (SIGINT)\n']);
  });

  it('is held by the entry before the program loads, and the command’s from its action on', async () => {
    try {
      startEarly(['node', 'feed-sync', 'validate']);
      expect(stillStarting()).toBe(true);
      // An action that begins (and fails on its config) takes the signals over as it begins.
      expect(await main(['node', 'feed-sync', 'validate', '-c', '/nonexistent/feed-sync.yaml'])).toBe(2);
      expect(stillStarting()).toBe(false);
    } finally {
      letGoOfSignals();
    }
  });
});
