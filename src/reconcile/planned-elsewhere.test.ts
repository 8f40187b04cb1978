import { describe, expect, it } from 'vitest';
import { PlannedForeign, PlannedSkipped } from './planned-elsewhere.ts';

describe('PlannedForeign', () => {
  it('lists foreign listings in key order, then ID, each made when read, owners as given', () => {
    const foreign = new PlannedForeign();
    foreign.add('M-2', 9, 'other');
    foreign.add('M-1', 4, undefined);
    foreign.add('M-2', 3, 'other');
    foreign.add('', 7, 'third');
    foreign.finish();
    expect([...foreign]).toEqual([
      { id: 7, key: '', owner: 'third' },
      { id: 4, key: 'M-1' },
      { id: 3, key: 'M-2', owner: 'other' },
      { id: 9, key: 'M-2', owner: 'other' },
    ]);
    expect(foreign.length).toBe(4);
    expect(foreign.at(-1)).toEqual({ id: 9, key: 'M-2', owner: 'other' });
    expect(foreign.at(4)).toBeUndefined();
    expect(JSON.parse(JSON.stringify({ foreign }))).toEqual({ foreign: [...foreign] });
    expect(() => foreign.add('M-3', 1, undefined)).toThrow(/finished/);
  });

  it('is not read before it is finished', () => {
    const foreign = new PlannedForeign();
    foreign.add('M-1', 1, undefined);
    expect(() => foreign.at(0)).toThrow(/finish/);
  });
});

describe('PlannedSkipped', () => {
  it('keeps each reason and owner', () => {
    const skipped = new PlannedSkipped();
    skipped.add({ key: 'B', id: 2, reason: 'owned-by-other-feed', owner: 'old-id' });
    skipped.add({ key: 'A', id: 1, reason: 'adopt-disabled' });
    skipped.finish();
    expect([...skipped]).toEqual([
      { key: 'A', id: 1, reason: 'adopt-disabled' },
      { key: 'B', id: 2, reason: 'owned-by-other-feed', owner: 'old-id' },
    ]);
  });
});
