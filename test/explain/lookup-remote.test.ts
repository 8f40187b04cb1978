import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.ts';
import { lookupRemote } from '../../src/explain/lookup-remote.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { listing } from '../../src/testing/listing.ts';

const tags = { ownerKey: 'feed-sync:feed', hashKey: 'feed-sync:hash' };
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A chatbot of `count` listings, one of them keyed `MLS-0003 ` (a space after it). */
async function chatbot(count: number) {
  sandbox = await startSandbox();
  sandbox.seed(
    'LOOKUP',
    Array.from({ length: count }, (_, i) => listing(i + 1, i === 2 ? { MLSNumber: 'MLS-0003 ' } : {})),
  );
  const client = createClient({ baseUrl: sandbox.url, timeoutMs: 5_000 });
  const lookup = (key: string) =>
    lookupRemote(client, { chatbot: 'LOOKUP', key, keyField: 'MLSNumber', pageSize: 2, tags });
  return { lookup };
}

describe('lookupRemote', () => {
  it('finds a key the platform holds with a space after it, where its filter (by the exact text) does not', async () => {
    const { lookup } = await chatbot(4);
    const found = await lookup('MLS-0003');
    expect(found.remote.map((r) => r.listing.MLSNumber)).toEqual(['MLS-0003']);
    expect(found.part).toMatchObject({
      lookedUp: true,
      by: 'MLSNumber MLS-0003, then no filter (every listing read)',
      calls: 3,
    });
  });

  it('a key on no page of a small chatbot is absent; on a larger one read in part, the part says so', async () => {
    const small = await (await chatbot(4)).lookup('MLS-9999');
    expect(small.part).toMatchObject({
      lookedUp: true,
      records: [],
      by: 'MLSNumber MLS-9999, then no filter (every listing read)',
    });
    expect(small.part).not.toHaveProperty('incomplete');
    await sandbox?.close();
    const large = await (await chatbot(9)).lookup('MLS-9999');
    expect(large.part).toMatchObject({
      lookedUp: true,
      records: [],
      incomplete: true,
      by: 'MLSNumber MLS-9999, then no filter (the first 4 listings read)',
    });
  });
});
