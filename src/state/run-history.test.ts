import { describe, expect, it } from 'vitest';
import { appendRun } from './run-history.ts';

const run = (
  startedAt: string,
  outcome = 'ok',
): { feedId: string; startedAt: string; outcome: string; trigger?: string } => ({
  feedId: 'a',
  startedAt,
  outcome,
});

describe('appendRun', () => {
  it.each([
    ['adds the newest first', [run('t1')], run('t2'), 5, ['t2', 't1']],
    ['keeps at most `keep` runs', [run('t2'), run('t1')], run('t3'), 2, ['t3', 't2']],
    ['an empty history gets the run', [], run('t1'), 3, ['t1']],
    ['keep below one still keeps the newest', [run('t1')], run('t2'), 0, ['t2']],
  ])('%s', (_name, history, next, keep, expected) => {
    expect(appendRun(history, next, keep).map((r) => r.startedAt)).toEqual(expected);
  });

  it('the same run recorded again replaces the newest entry', () => {
    const history = appendRun([run('t1')], run('t2', 'ok'), 5);
    const again = appendRun(history, { ...run('t2', 'ok'), trigger: 'manual' }, 5);
    expect(again).toEqual([{ ...run('t2'), trigger: 'manual' }, run('t1')]);
  });
});
