import { describe, expect, it } from 'vitest';
import { REPORT_AT as at, runReport } from '../testing/run-report.ts';
import { keysOfReport } from './report-keys.ts';

const base = runReport();

describe('keysOfReport', () => {
  it('every key the feed page shows, with what the run said; a broken row that holds one is named', () => {
    const keys = keysOfReport({
      ...base,
      changes: [
        { key: 'K-1', op: 'update', id: 1, fields: [] },
        { key: 'K-9', op: 'delete', id: 9, reason: 'gone' },
      ],
      failed: [{ key: 'K-2', operation: 'update', id: 2, code: 'E_HTTP', message: 'update: 500' }],
      graceKeys: [
        {
          key: 'K-5',
          id: 5,
          reason: 'gone',
          since: at.toISOString(),
          until: '2026-11-24T09:00:00.000Z',
          action: 'delete',
        },
      ],
      heldKeys: [
        {
          key: 'K-3',
          index: 2,
          row: 4,
          reason: 'in_broken_row',
          message: 'key appears in the shifted row 4 of a.csv',
          ids: [3],
        },
        {
          key: 'K-4',
          index: 3,
          row: 5,
          reason: 'not_a_number',
          message: 'Row 5 of a.csv: Bedrooms "three" is not a number',
          ids: [4],
        },
      ],
      rejections: [
        {
          feedId: 'acme',
          index: 3,
          row: 5,
          key: 'K-4',
          reason: 'not_a_number',
          message: 'Row 5 of a.csv: Bedrooms "three" is not a number',
        },
        {
          feedId: 'acme',
          index: 6,
          row: 8,
          key: 'K-7',
          reason: 'missing',
          message: 'Row 8 of a.csv: Status is missing',
        },
      ],
    });
    expect(keys).toEqual([
      { key: 'K-1', said: ['updated'] },
      { key: 'K-9', said: ['deleted (gone from the feed)'] },
      { key: 'K-2', said: ['update failed: update: 500'] },
      {
        key: 'K-5',
        said: ['gone from the feed since 2026-11-21 09:00 UTC; deleted from 2026-11-24 09:00 UTC'],
      },
      {
        key: 'K-3',
        said: ['held: key appears in the shifted row 4 of a.csv'],
        brokenRow: 'the shifted row 4 of a.csv',
      },
      {
        key: 'K-4',
        said: ['held: its record was rejected: Row 5 of a.csv: Bedrooms "three" is not a number'],
      },
      { key: 'K-7', said: ['rejected: Row 8 of a.csv: Status is missing'] },
    ]);
    expect(keysOfReport(undefined)).toEqual([]);
  });
});
