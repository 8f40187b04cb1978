import type { ResoCheckpoint } from './checkpoint.ts';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * One line on where a RESO replication stands, for the run report: what is read (the whole feed or
 * the changes since when), how far, whether it goes on, and the key sweep. Pure.
 */
export function replicationNote(input: {
  checkpoint: ResoCheckpoint;
  resumed: boolean;
  stop: 'complete' | 'paused' | 'continues';
  readThisRun: number;
  swept: number | undefined;
  sweepProblem: string | undefined;
}): string {
  const { checkpoint, stop, readThisRun } = input;
  const what =
    checkpoint.kind === 'full' ? 'full read' : `changes since ${checkpoint.since ?? 'the last run'}`;
  const runs = checkpoint.runs > 1 ? ` in ${checkpoint.runs} runs` : '';
  const total = `${count(checkpoint.records)} record${checkpoint.records === 1 ? '' : 's'}${runs}`;
  const thisRun = input.resumed || stop !== 'complete' ? `${count(readThisRun)} this run, ` : '';
  const state =
    stop === 'complete'
      ? 'complete'
      : stop === 'continues'
        ? 'goes on in the next run'
        : 'paused: goes on from the last page read';
  let note = `${what}: ${thisRun}${total}, ${state}`;
  if (input.swept !== undefined) note += `; key sweep: ${count(input.swept)} keys`;
  else if (input.sweepProblem)
    note += `; key sweep not finished (${input.sweepProblem}), owed to the next run`;
  return note;
}
