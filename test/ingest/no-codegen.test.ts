import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '../helpers/print-ingest.ts');

/** The ingest in a child Node, with extra flags. */
async function ingestIn(flags: string[], feed: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, [...flags, SCRIPT, feed], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout);
}

describe('without code generation from strings (--disallow-code-generation-from-strings)', () => {
  // The mapping and the listing check are generated code; a hardened Node refuses it, and the
  // ingest falls back to closures with the same results.
  it.each(['acme', 'euro-1252', 'generic-xml'])('%s ingests exactly as with it', async (feed) => {
    const hardened = await ingestIn(['--disallow-code-generation-from-strings'], feed);
    const normal = await ingestIn([], feed);
    expect(hardened).toEqual(normal);
    expect((normal as { listings: unknown[] }).listings.length).toBeGreaterThan(0);
  });
});
