import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.ts';
import { runsForConfigChange } from './config-runs.ts';

/** A config of three feeds; `edit` changes its text the way a user edits the file. */
function config(edit: (text: string) => string = (t) => t) {
  const text = [
    'api: { baseUrl: "https://usapi.example.com", secretKey: k, concurrency: 8 }',
    'feeds:',
    '  - id: a',
    '    chatbot: BOT1',
    '    source: { format: csv, path: a.csv }',
    '    schedule: { cron: "0 * * * *" }',
    '    mapping: { fields: { MLSNumber: MLS, Url: Link } }',
    '  - id: b',
    '    chatbot: BOT1',
    '    source: { format: csv, path: b.csv }',
    '  - id: c',
    '    chatbot: BOT2',
    '    source: { format: xml, path: c.xml, xml: { recordPath: listings.listing } }',
    '    mapping: { preset: kyero }',
  ].join('\n');
  return parseConfig(edit(text));
}

const runs = (edit: (text: string) => string) =>
  runsForConfigChange(config(), config(edit)).map((r) => `${r.feedId}: ${r.why}`);

describe('runsForConfigChange', () => {
  it('runs nothing for the same config', () => {
    expect(runsForConfigChange(config(), config())).toEqual([]);
  });

  it('runs exactly the feed whose entry changed, saying what changed', () => {
    expect(runs((t) => t.replace('Url: Link', 'Url: Permalink'))).toEqual(['a: mapping changed']);
    expect(runs((t) => t.replace('path: b.csv', 'path: b2.csv'))).toEqual(['b: source changed']);
    expect(runs((t) => t.replace('chatbot: BOT2', 'chatbot: BOT3\n    key: Url'))).toEqual([
      'c: chatbot, key changed',
    ]);
    expect(runs((t) => `${t}\n    maxDeleteShare: 0.5`)).toEqual(['c: maxDeleteShare changed']);
  });

  it('a schedule change alone runs nothing: the scheduler is updated', () => {
    expect(runs((t) => t.replace('0 * * * *', '30 * * * *'))).toEqual([]);
    // How often a run compares says when, not what it writes.
    expect(runs((t) => `${t}\n    fullCompareEveryHours: 6`)).toEqual([]);
  });

  it('the order of keys is not a change', () => {
    expect(runs((t) => t.replace('{ MLSNumber: MLS, Url: Link }', '{ Url: Link, MLSNumber: MLS }'))).toEqual(
      [],
    );
  });

  it('runs a new feed and one enabled again; never a disabled or removed one', () => {
    const added = `\n  - id: d\n    chatbot: BOT1\n    source: { format: csv, path: d.csv }`;
    expect(runs((t) => t + added)).toEqual(['d: new feed']);
    const disabled = (t: string) => t.replace('path: b.csv }', 'path: b.csv }\n    enabled: false');
    expect(runsForConfigChange(config(), config(disabled))).toEqual([]);
    expect(runsForConfigChange(config(disabled), config()).map((r) => r.feedId)).toEqual(['b']);
    const removed = (t: string) => t.replace(/ {2}- id: c[\s\S]*$/, '');
    expect(runsForConfigChange(config(), config(removed))).toEqual([]);
  });

  it('runs every enabled feed when ownerKey or what api reaches changes, not its pace', () => {
    const all = (why: string) => ['a', 'b', 'c'].map((id) => `${id}: ${why}`);
    expect(runs((t) => `${t}\nownerKey: acme:feed`)).toEqual(all('ownerKey changed'));
    expect(runs((t) => t.replace('usapi.example.com', 'eu.usapi.example.com'))).toEqual(
      all('api.baseUrl changed'),
    );
    expect(
      runs((t) => t.replace('concurrency: 8', 'concurrency: 2, requestsPerSecond: 5, retries: 1')),
    ).toEqual([]);
    // A feed's own change is named over the global one.
    expect(
      runs((t) => t.replace('concurrency: 8', 'pageSize: 50').replace('path: b.csv', 'path: b2.csv')),
    ).toEqual(['a: api.pageSize changed', 'b: source changed', 'c: api.pageSize changed']);
  });
});
