import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from './helpers.ts';

/**
 * Issue 14's first command: `npm start` (`feed-sync start`) on a machine with nothing configured
 * runs the worker on the embedded store, with the demo feeds against the bundled sandbox and the
 * dashboard on loopback, and keeps its history and schedules through `kill -9`.
 */
const ROOT = process.cwd();
const NODE = join(ROOT, 'node_modules/.bin/node');
const children: ChildProcess[] = [];
let dir = '';

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

function start() {
  const child = spawn(NODE, [join(ROOT, 'src/cli/main.ts'), 'start'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, UI_PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  const lines: Array<Record<string, unknown>> = [];
  let pending = '';
  child.stderr?.on('data', (chunk) => {
    pending += String(chunk);
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part) as Record<string, unknown>);
      } catch {
        lines.push({ msg: part });
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

async function counts(url: string) {
  const response = await fetch(`${url}/queues/api/queues?activeQueue=feed-sync&status=completed`);
  const body = (await response.json()) as { queues: Array<{ counts: Record<string, number> }> };
  return body.queues[0]!.counts;
}

async function completedJobs(url: string) {
  const response = await fetch(`${url}/queues/api/queues?activeQueue=feed-sync&status=completed`);
  const body = (await response.json()) as { queues: Array<{ jobs: Array<{ id: string }> }> };
  return body.queues[0]!.jobs;
}

describe('npm start with nothing configured', () => {
  it('runs the demo feeds on the embedded store with the dashboard, and survives kill -9', async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-sync-start-'));
    const first = start();
    const started = await waitFor(() => first.lines.find((l) => l.msg === 'worker started'), 60_000, 'start');
    expect(started.store).toBe(`embedded PGlite at ${join(dir, '.feed-sync', 'queue')}`);
    const url = String(started.ui);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await waitFor(
      () => first.lines.filter((l) => l.msg === 'job completed').length >= 2,
      30_000,
      'the first runs',
    );
    expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ ok: true, missingSchedulers: [] });
    // Two completed runs, and each demo feed's scheduler holds its next run.
    expect(await counts(url)).toMatchObject({ delayed: 2, failed: 0 });
    const before = (await completedJobs(url)).map((j) => j.id);
    expect(before.length).toBeGreaterThanOrEqual(2);

    first.child.kill('SIGKILL');
    await first.exited;
    const second = start();
    const again = await waitFor(
      () => second.lines.find((l) => l.msg === 'worker started'),
      60_000,
      'restart',
    );
    const url2 = String(again.ui);
    // History and schedules came through the kill: the old runs are there, the new ones add to them
    // (a run the kill cut short is taken over once its lock expires: up to a minute).
    await waitFor(
      async () => ((await counts(url2)).completed ?? 0) >= 4,
      100_000,
      'the runs after the restart',
    );
    expect(await counts(url2)).toMatchObject({ delayed: 2, failed: 0 });
    const ids = (await completedJobs(url2)).map((j) => j.id);
    for (const id of before) expect(ids).toContain(id);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 200_000);

  it('an edit of the demo config runs the feed it touches at once, with trigger config (issue 22)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-sync-start-'));
    const worker = start();
    const started = await waitFor(
      () => worker.lines.find((l) => l.msg === 'worker started'),
      60_000,
      'start',
    );
    await waitFor(
      () => worker.lines.filter((l) => l.msg === 'job completed').length >= 2,
      30_000,
      'the first runs',
    );
    // The log says which file to edit.
    const file = join(dir, '.feed-sync', 'demo', 'feed-sync.yaml');
    expect(worker.lines.some((l) => String(l.msg).includes('edit .feed-sync/demo/feed-sync.yaml'))).toBe(
      true,
    );
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace('        Description: Remarks', '        Description: { from: Remarks, html: true }'),
    );
    const queued = await waitFor(
      () => worker.lines.find((l) => String(l.msg).startsWith('config changed:')),
      10_000,
      'the config run',
    );
    expect(queued.runs).toEqual(['harbor-homes (mapping changed)']);
    const done = await waitFor(
      () =>
        worker.lines.find(
          (l) =>
            l.msg === 'job completed' && (l.data as { trigger?: string } | undefined)?.trigger === 'config',
        ),
      30_000,
      'the config run to finish',
    );
    expect(done.data).toEqual({ feedId: 'harbor-homes', trigger: 'config' });
    // The dashboard's feed page says why the run happened; the run kept the demo's sandbox.
    const page = await (await fetch(`${String(started.ui)}/feeds/harbor-homes`)).text();
    expect(page).toContain('<td>config</td>');
    // The demo feed has one rejected row: the log says the run's outcome as the dashboard does.
    expect(
      worker.lines.some(
        (l) => l.msg === 'sync finished' && l.outcome === 'partial' && l.feed === 'harbor-homes',
      ),
    ).toBe(true);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  }, 120_000);
});
