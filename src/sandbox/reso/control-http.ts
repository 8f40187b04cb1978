import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { describeIssues } from '../issues.ts';
import { configureSchema, controlBodies, type ResoControl } from './control.ts';
import { ResoOptionsError } from './options.ts';

/** Paths of the control endpoints: no auth, not counted, never limited. */
export const CONTROL_PREFIX = '/__reso';

/** Answer a control request; see README "The sandbox" and docs/reso-providers.md for the list. */
export function handleControl(
  method: string,
  url: URL,
  body: string,
  res: ServerResponse,
  control: ResoControl,
): void {
  try {
    const result = dispatch(method, url, body, control);
    if (result === NOT_FOUND) reply(res, 404, { error: `no control endpoint ${method} ${url.pathname}` });
    else reply(res, 200, result ?? { ok: true });
  } catch (error) {
    if (error instanceof z.ZodError) reply(res, 400, { error: describeIssues(error) });
    else if (error instanceof SyntaxError)
      reply(res, 400, { error: `body: invalid JSON (${error.message})` });
    else if (error instanceof ResoOptionsError || error instanceof RangeError)
      reply(res, 400, { error: error.message });
    else throw error;
  }
}

const NOT_FOUND = Symbol('not found');

function dispatch(method: string, url: URL, text: string, control: ResoControl): unknown {
  const path = url.pathname.slice(CONTROL_PREFIX.length);
  const body = () => (text.trim() === '' ? undefined : JSON.parse(text));
  if (method === 'GET') {
    if (path === '/state') return control.snapshot();
    if (path === '/requests') return control.requests();
    if (path === '/emails') return control.emails();
    if (path === '/keys')
      return control.keys(
        Number(url.searchParams.get('from') ?? 0),
        Number(url.searchParams.get('count') ?? 10),
      );
    if (path.startsWith('/listings/'))
      return control.record(decodeURIComponent(path.slice('/listings/'.length))) ?? null;
    return NOT_FOUND;
  }
  if (method !== 'POST') return NOT_FOUND;
  switch (path) {
    case '/reset':
      return control.reset(controlBodies.reset.parse(body()));
    case '/clock/advance':
      return { now: control.advanceClock(controlBodies.advance.parse(body()).ms) };
    case '/configure':
      return control.configure(configureSchema.parse(body()));
    case '/listings/modify': {
      const { keys, ...change } = controlBodies.modify.parse(body());
      return control.modify(keys, change);
    }
    case '/listings/bump':
    case '/listings/delete':
    case '/listings/close': {
      const { keys, at } = controlBodies.keysAt.parse(body());
      if (path === '/listings/bump') control.bump(keys, at);
      else if (path === '/listings/delete') control.markDeleted(keys, at);
      else control.close(keys, at);
      return undefined;
    }
    case '/listings/add': {
      const { count, at } = controlBodies.add.parse(body());
      return { keys: control.add(count, at) };
    }
    default:
      return NOT_FOUND;
  }
}

function reply(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export { ResoOptionsError };
