import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { fixture } from './helpers.ts';

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await main(['node', 'feed-sync', ...args]);
    return { code, out: chunks.join('') };
  } finally {
    write.mockRestore();
    err.mockRestore();
  }
}

describe('feed-sync validate', () => {
  it('prints counts, rejections by reason and the inferred mapping; --json has the whole report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'feed-sync-validate-'));
    const config = join(dir, 'feed-sync.yaml');
    await writeFile(
      config,
      [
        'feeds:',
        '  - id: tabs',
        '    chatbot: SN1',
        `    source: { format: csv, path: ${fixture('csv/tab-inferred.tsv')} }`,
        '  - id: lol',
        '    chatbot: SN1',
        `    source: { format: xml, path: ${fixture('xml/billion-laughs.xml')}, xml: { recordPath: Listings.Listing } }`,
      ].join('\n'),
    );
    const text = await run(['validate', '-c', config, '--feed', 'tabs']);
    expect(text.code).toBe(0);
    expect(text.out).toContain('✓ tabs: 3 records: 0 valid, 3 rejected');
    expect(text.out).toContain('CurrencySymbol missing (3):');
    expect(text.out).toContain('Row 2 of tab-inferred.tsv: CurrencySymbol is missing (required)');
    expect(text.out).toContain('MLSNumber: MLS#');
    const json = await run(['validate', '-c', config, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out) as { feeds: { feedId: string; ok: boolean; code?: string }[] };
    expect(report.feeds.map((f) => [f.feedId, f.ok, f.code])).toEqual([
      ['tabs', true, undefined],
      ['lol', false, 'E_FEED_UNSAFE'],
    ]);
  });
});
