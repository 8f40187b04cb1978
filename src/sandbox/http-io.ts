import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { FeedSyncError } from '../errors.ts';

/** Request bodies above this are refused; the largest real body is a create with a long description. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class BodyTooLargeError extends FeedSyncError {
  constructor(message = 'request body too large') {
    super(message, { kind: 'CONFIG_INVALID', code: 'E_BODY_TOO_LARGE' });
  }
}

/** Read the whole request body as UTF-8. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new BodyTooLargeError(`body larger than ${limit} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; reason: string };

export function parseJson(text: string): JsonBody {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Write a complete answer, unless the client already went away. */
export function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: OutgoingHttpHeaders = { 'Content-Type': 'application/json; charset=utf-8' },
): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  send(res, status, JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8', ...headers });
}

/** Wait `ms`; false when `signal` aborted first (the client left or the sandbox is closing). */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
