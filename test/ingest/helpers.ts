import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { type FeedConfig, feedConfigSchema } from '../../src/config/schema.ts';

export const FIXTURES = resolve(import.meta.dirname, '../../fixtures/feeds');
export const fixture = (name: string) => resolve(FIXTURES, name);

/** A feed config as the loader would produce it (defaults applied). */
export function feed(partial: Record<string, unknown>): FeedConfig {
  return feedConfigSchema.parse({ id: 'test-feed', chatbot: 'SN-TEST', ...partial });
}

export interface TestServer {
  url: string;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

/** A real local HTTP server for one test (no mocked fetch). */
export async function withServer(
  handler: (req: IncomingMessage, res: ServerResponse, n: number) => void | Promise<void>,
): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    Promise.resolve(handler(req, res, requests.length)).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
