import { describe, expect, it } from 'vitest';
import { editDistance, nearestKey } from './nearest.ts';

describe('nearestKey', () => {
  const known = ['baseUrl', 'secretKey', 'sessionKey', 'maxDeleteShare', 'from', 'worker', 'id'];
  it.each([
    ['baseURL', 'baseUrl'], // case only
    ['maxDeleteShar', 'maxDeleteShare'], // a letter missing
    ['form', 'from'], // two letters swapped
    ['wokrer', 'worker'],
    ['secretkey', 'secretKey'],
    ['sesionKey', 'sessionKey'],
    ['ids', 'id'],
    ['zzzzzzzz', undefined], // nothing close
    ['tz', undefined],
  ])('%s → %s', (typo, expected) => expect(nearestKey(typo, known)).toBe(expected));

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('form', 'from')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
