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
  it("shows the command line's runs of a feed no worker ran, and the worker's once it has", async () => {
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
    // Writes are the worker's; its first run hides the command line's.
    await state.recordRun('acme', report('acme', '2026-12-02T11:00:00Z') as never);
    expect(await worker.listRuns('acme')).toHaveLength(1);
    const [worker1] = (await state.listRuns('acme')) as Record<string, unknown>[];
    expect(worker1).toMatchObject({ startedAt: '2026-12-02T11:00:00Z' });
    expect(worker1?.fromStateFile).toBeUndefined();
    expect((await state.getFeed('acme')).lastReport).toMatchObject({ startedAt: '2026-12-02T11:00:00Z' });
    expect(await cli.listRuns('acme')).toHaveLength(1);
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
