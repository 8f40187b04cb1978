import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStateStore } from './file-store.ts';
import { createMemoryStateStore } from './state-store.ts';
import { withCliHistory } from './with-cli-history.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const stateFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-history-'));
  dirs.push(dir);
  return join(dir, 'state.json');
};
const report = (feedId: string, startedAt: string) => ({ feedId, startedAt, outcome: 'ok', created: 3 });

describe('withCliHistory', () => {
  it("shows the command line's runs of a feed no worker ran, and beside the worker's once it has", async () => {
    const file = stateFile();
    const cli = createFileStateStore(file);
    await cli.recordRun('acme', report('acme', '2026-12-02T10:00:00Z') as never);
    const worker = createMemoryStateStore();
    const state = withCliHistory(worker, () => file);
    expect(await state.listRuns('acme')).toMatchObject([
      { startedAt: '2026-12-02T10:00:00Z', fromStateFile: true },
    ]);
    expect((await state.getFeed('acme')).lastReport).toMatchObject({ startedAt: '2026-12-02T10:00:00Z' });
    expect(await state.listRuns('other')).toEqual([]);
    // Writes are the worker's; the command line's runs stay in the history, newest first.
    await state.recordRun('acme', report('acme', '2026-12-02T11:00:00Z') as never);
    expect(await worker.listRuns('acme')).toHaveLength(1);
    expect(await cli.listRuns('acme')).toHaveLength(1);
    const runs = (await state.listRuns('acme')) as Record<string, unknown>[];
    expect(runs.map((r) => [r.startedAt, r.fromStateFile])).toEqual([
      ['2026-12-02T11:00:00Z', undefined],
      ['2026-12-02T10:00:00Z', true],
    ]);
    expect((await state.getFeed('acme')).lastReport).toMatchObject({ startedAt: '2026-12-02T11:00:00Z' });
    // A sync by hand after the worker's run: the newest, so the feed's state is the state file's.
    await cli.recordRun('acme', report('acme', '2026-12-02T12:00:00Z') as never);
    const again = (await state.listRuns('acme', 2)) as Record<string, unknown>[];
    expect(again.map((r) => [r.startedAt, r.fromStateFile])).toEqual([
      ['2026-12-02T12:00:00Z', true],
      ['2026-12-02T11:00:00Z', undefined],
    ]);
    expect((await state.getFeed('acme')).lastReport).toMatchObject({ startedAt: '2026-12-02T12:00:00Z' });
  });

  it('passes over a state file that is missing, unreadable, or not configured', async () => {
    const worker = createMemoryStateStore();
    const broken = stateFile();
    writeFileSync(broken, '{ not json');
    for (const file of [stateFile(), broken, undefined]) {
      const state = withCliHistory(worker, () => file);
      expect(await state.listRuns('acme')).toEqual([]);
      expect(await state.getFeed('acme')).toEqual({});
    }
  });
});
