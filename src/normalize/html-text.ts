/** Named entities descriptions use; anything else is left as written. */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  deg: '°',
  sup2: '²',
  sup3: '³',
  euro: '€',
  pound: '£',
  copy: '©',
  reg: '®',
  trade: '™',
};

/** Elements that end a line of text (their end tags: `</div><div>` is one line break, not two). */
const BREAK = /<\s*(?:br|\/p|\/div|\/li|\/h[1-6]|\/tr)\b[^>]*>/gi;
const TAG = /<[^>]*>/g;
const ENTITY = /&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z][a-z\d]{1,7}));/gi;

/**
 * HTML (a REAXML CDATA description, a Kyero `desc`) as the plain text a chatbot can quote: line
 * breaks where the markup breaks lines, tags dropped, entities decoded, runs of spaces collapsed,
 * at most one blank line in a row. Text without markup comes back trimmed and collapsed.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(BREAK, '\n')
    .replace(TAG, '')
    .replace(ENTITY, decodeEntity);
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function decodeEntity(whole: string, dec?: string, hex?: string, name?: string): string {
  if (name !== undefined) return NAMED[name.toLowerCase()] ?? whole;
  const code = dec !== undefined ? Number(dec) : Number.parseInt(hex!, 16);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
}
