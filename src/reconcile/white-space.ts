/**
 * White space as JavaScript's `\s` and `trim()` see it, and text with it folded: the one canonical
 * form of text that the comparison, the digest and the record hash share.
 */

/** `\s` of a JavaScript regular expression (what `trim()` and `/\s+/` treat as white space). */
export function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    (c >= 0x80 &&
      (c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000 ||
        c === 0xfeff))
  );
}

/**
 * `text.trim().replace(/\s+/g, ' ')`, returning `text` itself without a copy or a regular expression
 * when it is already folded (no white space at either end, none but single spaces inside): almost
 * every value of every listing, folded for every listing of every run.
 */
export function foldSpaces(text: string): string {
  const last = text.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (i === 0 || i === last || text.charCodeAt(i + 1) === 32) return text.trim().replace(/\s+/g, ' ');
    } else if (isSpace(c)) return text.trim().replace(/\s+/g, ' ');
  }
  return text;
}
