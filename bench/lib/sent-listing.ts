/**
 * The listing a sync sends for a feed's record, as it goes over the wire: the built CLI syncs a
 * one-record feed of the bench's format to a server that only records what it is sent. The creates'
 * floor posts it (`floor-reads.mjs creates`), so the floor and the sync send the same bytes: the
 * same fields, tags and all, for the platform to parse and store.
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runChild } from './child.ts';
import { BUILT_CLI } from './cli.ts';
import { type Format, feedEntry, generateFeed } from './feeds.ts';

const ENVELOPE = { Success: true, Code: 200, Message: 'ok', Version: '1' };

/** The create body the built CLI sends for the first record of a `format` feed, without its SerialNumber. */
export async function sentListing(format: Format, workDir: string): Promise<Record<string, unknown>> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const create = request.url?.endsWith('/RealEstateCreate') === true;
      if (create) bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const data = create ? '1' : { List: [], VirtualCount: 0 };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ ...ENVELOPE, Data: data }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const config = join(workDir, `sent-${format}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        api: { baseUrl: `http://127.0.0.1:${port}`, concurrency: 1 },
        stateFile: join(workDir, `sent-${format}.state.json`),
        feeds: [feedEntry(format, await generateFeed(format, 1), 'bench', 'SENT')],
      }),
    );
    const child = await runChild([BUILT_CLI, 'sync', '-c', config, '--feed', 'bench', '--json']);
    const [body] = bodies;
    if (child.code !== 0 || bodies.length !== 1 || body === undefined)
      throw new Error(`sent listing: exit ${child.code}, ${bodies.length} create(s)\n${child.stderr}`);
    const { SerialNumber: _serial, ...listing } = body;
    return listing;
  } finally {
    server.close();
  }
}
