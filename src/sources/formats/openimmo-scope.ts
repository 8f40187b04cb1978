import { rejoin } from './rejoin.ts';

/** `<uebertragung … umfang="TEIL">`, with or without a namespace prefix. */
const SCOPE = /<(?:[\w.-]+:)?uebertragung\b[^>]*?\bumfang\s*=\s*["']([^"']*)["']/i;
/** The records start here: `uebertragung` comes before, so looking further is pointless. */
const FIRST_RECORD = /<(?:[\w.-]+:)?(anbieter|immobilie)\b/i;
const MAX_PEEK = 64 * 1024;

/**
 * OpenImmo says in `uebertragung umfang` whether a file is the whole stock (`VOLL`) or only the
 * objects that changed (`TEIL`, where removals come as `aktion DELETE`). A partial file read as a
 * full one would delete every listing it does not mention, so `TEIL` makes the run incremental:
 * absent listings stay. Reads the head of the text (up to the first `anbieter`) and gives the text
 * back whole.
 */
export async function peekOpenImmoScope(
  text: AsyncIterable<string>,
): Promise<{ mode: 'full' | 'incremental'; text: AsyncIterable<string> }> {
  const iterator = text[Symbol.asyncIterator]();
  let head = '';
  let done = false;
  while (!FIRST_RECORD.test(head) && head.length < MAX_PEEK) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head += next.value;
  }
  const first = head.search(FIRST_RECORD);
  const scope = SCOPE.exec(first >= 0 ? head.slice(0, first) : head)?.[1];
  const mode = scope?.trim().toUpperCase() === 'TEIL' ? 'incremental' : 'full';
  return { mode, text: rejoin(head, done, iterator) };
}
