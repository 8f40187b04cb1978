import { describe, expect, it } from 'vitest';
import { foldSpaces, isSpace } from './white-space.ts';

const slow = (text: string) => text.trim().replace(/\s+/g, ' ');

describe('foldSpaces', () => {
  it.each([
    '',
    ' ',
    'a',
    'a b',
    'a  b',
    ' a',
    'a ',
    'a\tb',
    'a\u00a0b',
    '\u3000a',
    'a\u2028',
    'Remarks for listing 1, with a comma',
    '12 Main St\r\nApt 4',
    'a \u00a0b',
  ])('gives what trim and /\\s+/ give for %j', (text) => {
    expect(foldSpaces(text)).toBe(slow(text));
  });

  it('agrees with them on every code unit, alone and between letters', () => {
    for (let c = 0; c < 0x10000; c++) {
      const char = String.fromCharCode(c);
      for (const text of [char, `a${char}b`, `a${char}${char}b`, `a ${char}b`]) {
        if (foldSpaces(text) !== slow(text))
          throw new Error(`differs on U+${c.toString(16)} in ${JSON.stringify(text)}`);
      }
      expect(isSpace(c)).toBe(/\s/.test(char));
    }
  });

  it('returns the same string, not a copy, when there is nothing to fold', () => {
    const text = `Remarks ${'x'.repeat(40)} end`;
    expect(foldSpaces(text)).toBe(text);
  });
});
