import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  url: string;
  /** Bodies of the requests received, parsed as JSON, with their path and headers. */
  requests: { path: string; headers: IncomingMessage['headers']; body: unknown }[];
  close(): Promise<void>;
}

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  n: number,
) => void | Promise<void>;

/**
 * A real HTTP server on a random loopback port, for tests of code that talks HTTP (as got's tests
 * do). `host`: another loopback address (`127.0.0.2`: one a proxy serves, not `localhost`'s).
 */
export async function withServer(handler: Handler, { host = '127.0.0.1' } = {}): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the raw text
    }
    requests.push({ path: req.url ?? '', headers: req.headers, body });
    await handler(req, res, body, requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof value === 'string' ? value : JSON.stringify(value));
}

export const ok = (Data: unknown) => ({ Data, Version: '1.0', Success: true, Code: 200, Message: '' });
