import { describe, expect, it } from 'vitest';
import { advanceWatermark } from './read-reso-api.ts';

const record = (ModificationTimestamp?: string) => ({ index: 0, fields: { ModificationTimestamp } });

describe('advanceWatermark: the RESO source state as a reducer over the records', () => {
  it('moves to a newer timestamp, compared as instants, and returns a new state', () => {
    const before = { lastFullRunAt: '2024-05-01T00:00:00.000Z' };
    const after = advanceWatermark(before, record('2024-05-01T10:00:00+02:00'), '2024-05-01T07:00:00Z');
    expect(after).toEqual({
      lastFullRunAt: '2024-05-01T00:00:00.000Z',
      resoWatermark: '2024-05-01T08:00:00.000Z',
    });
    expect(before).toEqual({ lastFullRunAt: '2024-05-01T00:00:00.000Z' });
  });

  it('keeps the state for an older or missing timestamp', () => {
    const state = { resoWatermark: '2024-05-02T00:00:00.000Z' };
    expect(advanceWatermark(state, record('2024-05-01T00:00:00Z'), undefined)).toBe(state);
    expect(advanceWatermark(state, record(undefined), undefined)).toBe(state);
    expect(advanceWatermark({}, record('2024-04-01T00:00:00Z'), '2024-05-01T00:00:00Z')).toEqual({});
  });
});
