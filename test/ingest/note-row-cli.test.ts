import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliFeed } from '../helpers/cli-feed.ts';
import { fixture } from './helpers.ts';

// A Redfin download with only a path: its disclaimer row under the header is a note.
const t = useCliFeed(
  (url) => `
api: { baseUrl: ${url} }
stateFile: state.json
feeds:
  - id: redfin
    chatbot: SN-REDFIN
    key: MLSNumber
    source: { format: csv, path: feed.csv }
`,
);

describe('a CSV whose disclaimer row under the header is a note (issue 21 review §3)', () => {
  it('the sync is ok (exit 0, not partial), every row a listing, the note said once; the second run writes nothing', async () => {
    await copyFile(fixture('csv/redfin-download.csv'), join(t.dir, 'feed.csv'));
    expect(await t.cli('sync', '--feed', 'redfin')).toBe(0);
    const out = t.out();
    expect(out.split('hint: row 2 of feed.csv holds only a note').length - 1).toBe(1);
    expect(out).toContain('✓ redfin → SN-REDFIN: ok');
    expect(out).toContain('created 5, updated 0, deleted 0, unchanged 0, rejected 0');
    expect(
      t.sandbox
        .listings('SN-REDFIN')
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual(['RF1001', 'RF1002', 'RF1003', 'RF1004', 'RF1005']);
    t.reset();
    await t.cli('sync', '--feed', 'redfin', '--json');
    expect(JSON.parse(t.out())).toMatchObject({ outcome: 'ok', created: 0, updated: 0, rejected: 0 });
  });
});
