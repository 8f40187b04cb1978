import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { writeStream } from './ask-stream.ts';
import { auth401Message, isAuthorized } from './auth.ts';
import type { SandboxControl } from './control.ts';
import { fail } from './envelope.ts';
import { pickFault } from './faults.ts';
import { BodyTooLargeError, isObject, parseJson, pause, readBody, send, sendJson } from './http-io.ts';
import { handleInspection, INSPECTION_PREFIX } from './inspection.ts';
import { HANDLERS, operationAt } from './operations.ts';
import type { Operation } from './routes.ts';
import { envelopeReply, type Reply, type SandboxState } from './state.ts';
import type { FaultKind } from './stats.ts';

/**
 * The request listener. An operation request goes: counted and in flight → body read → rate limit
 * (429 at once, as a gateway answers) → latency →
 * 404/405 → fault drawn (500, 429, hang answer before the operation runs) → auth → JSON → the
 * operation → the answer (cut in half for malformed JSON, replaced by a 502 for ambiguous create).
 * Faults come before auth on purpose: they stand for the proxies and load balancers in front.
 */
export function createListener(state: SandboxState, control: SandboxControl) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res, state, control).catch((error: unknown) => {
      // A bug in the sandbox: answer it loudly rather than leave the client hanging.
      sendJson(
        res,
        500,
        fail(500, `sandbox error: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  state: SandboxState,
  control: SandboxControl,
) {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  if (url.pathname.startsWith(INSPECTION_PREFIX)) return handleInspection(req, res, url, control);

  const operation = operationAt(url.pathname);
  res.once('close', state.stats.enter(operation));
  const closed = new AbortController();
  res.once('close', () => closed.abort());
  const signal = closed.signal;

  const raw = await readBodyOrAnswer(req, res);
  if (raw === undefined) return;
  if (operation && state.settings.rateLimitPerSecond > 0) {
    const admitted = state.rate.admit(performance.now(), state.settings.rateLimitPerSecond);
    if (!admitted.ok) {
      state.stats.rateLimited();
      const fixed = state.settings.rateLimitRetryAfterSeconds;
      const seconds = String(fixed > 0 ? fixed : Math.ceil(admitted.retryAfterMs / 1000));
      const headers = state.settings.rateLimitRetryAfter ? { 'Retry-After': seconds } : undefined;
      return sendJson(res, 429, fail(429, 'Too many requests (sandbox rate limit)'), headers);
    }
  }
  if (!(await pause(state.settings.latencyMs, signal))) return;
  if (!operation) return sendJson(res, 404, fail(404, `no operation at ${url.pathname}`));
  if (req.method !== 'POST')
    return sendJson(res, 405, fail(405, `${req.method} not allowed; use POST`), { Allow: 'POST' });

  const fault = drawFault(state, operation);
  const { faults } = state.settings;
  if (fault === 'error500') return sendJson(res, 500, fail(500, 'Internal server error (sandbox fault)'));
  if (fault === 'rate429') {
    const headers = { 'Retry-After': String(faults.retryAfterSeconds) };
    return sendJson(res, 429, fail(429, 'Too many requests (sandbox fault)'), headers);
  }
  if (fault === 'hang') {
    if (await pause(faults.hangMs, signal)) res.destroy();
    return;
  }

  if (fault === 'refused')
    return sendJson(res, 200, fail(400, 'Invalid listing (sandbox fault: refuseRate)'));
  const reply = answer(operation, raw, req.headers, state);
  if (fault === 'ambiguousCreate') return send(res, 502, '502 Bad Gateway', { 'Content-Type': 'text/plain' });
  const malformed = fault === 'malformedJson';
  if (reply.kind === 'stream') {
    const { streamFraming: framing, streamDelayMs: delayMs } = state.settings;
    return writeStream(res, reply.stream, { framing, delayMs, truncateFinal: malformed, signal });
  }
  const body = JSON.stringify(reply.envelope);
  send(res, 200, malformed ? body.slice(0, Math.floor(body.length / 2)) : body);
}

/** The body, or undefined once the request is answered (too large) or gone (client aborted). */
async function readBodyOrAnswer(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
  try {
    return await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      sendJson(res, 413, fail(413, `body: ${error.message}`), { Connection: 'close' });
    return undefined;
  }
}

/** One draw per request to an operation faults apply to, so the sequence depends only on the request order. */
function drawFault(state: SandboxState, operation: Operation): FaultKind | undefined {
  if (!state.settings.faultOperations.includes(operation)) return undefined;
  const fault = pickFault(state.random(), state.settings.faults, operation);
  if (fault) state.stats.fault(fault);
  return fault;
}

function answer(operation: Operation, raw: string, headers: IncomingHttpHeaders, state: SandboxState): Reply {
  if (!isAuthorized(headers, state.settings)) return envelopeReply(fail(401, auth401Message));
  const json = parseJson(raw);
  if (!json.ok) return envelopeReply(fail(400, `body: invalid JSON (${json.reason})`));
  if (!isObject(json.value)) return envelopeReply(fail(400, 'body: expected a JSON object'));
  return HANDLERS[operation](json.value, state);
}
