import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { sendJson, type TestServer, withServer } from './with-server.ts';

/** One recorded request and its answer (test/api/recorded/*.json). */
export interface Exchange {
  operation: 'edit' | 'session' | 'ask' | 'create' | 'update' | 'list' | 'delete';
  path: string;
  /** Headers the request must carry (a subset of what is sent). */
  headers: Record<string, string>;
  request: Record<string, unknown>;
  response: { status: number; body: { Data: unknown } & Record<string, unknown> };
  /** `shape`: the answer is compared by the types of its values only (the model's text). */
  compare?: 'shape';
}

export interface Recording {
  scenario: string;
  chatbot: string;
  exchanges: Exchange[];
}

export function loadRecording(name: string): Recording {
  const url = new URL(`../api/recorded/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Recording;
}

/** What the replay server saw that the recording did not expect. */
export interface Mismatch {
  index: number;
  expected: unknown;
  actual: unknown;
}

/**
 * A server that stands for the real platform by replaying a recording in order: each request must
 * match the recorded one (path, headers, body); any difference is kept in `mismatches`.
 */
export async function replayServer(
  recording: Recording,
): Promise<TestServer & { mismatches: Mismatch[]; remaining: () => number }> {
  const mismatches: Mismatch[] = [];
  let next = 0;
  const server = await withServer((req, res, body) => {
    const index = next++;
    const exchange = recording.exchanges[index];
    if (!exchange) {
      mismatches.push({ index, expected: 'no more requests', actual: { path: req.url, body } });
      return sendJson(res, 500, 'unexpected request');
    }
    const sentHeaders = Object.fromEntries(
      Object.keys(exchange.headers).map((name) => [name, req.headers[name]?.toString().split(';')[0]]),
    );
    const actual = { path: req.url, headers: sentHeaders, body };
    const expected = { path: exchange.path, headers: exchange.headers, body: exchange.request };
    if (!isDeepStrictEqual(actual, expected)) mismatches.push({ index, expected, actual });
    sendJson(res, exchange.response.status, exchange.response.body);
  });
  return Object.assign(server, { mismatches, remaining: () => recording.exchanges.length - next });
}

/** Platform IDs differ between backends: name each `#n`, n its order of first appearance. */
export function idNames(): (id: unknown) => string {
  const seen = new Map<string, string>();
  return (id) => {
    const key = String(id);
    if (!seen.has(key)) seen.set(key, `#${seen.size + 1}`);
    return seen.get(key)!;
  };
}

/** The type of every value, recursively: what `compare: shape` compares. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return value === null ? 'null' : typeof value;
}
