import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { SandboxControl } from './control.ts';
import { isObject, parseJson, readBody, sendJson } from './http-io.ts';
import { describeIssues } from './issues.ts';
import { parseConfigure, SandboxOptionsError } from './options-schema.ts';
import { sandboxListingSchema } from './request-schemas.ts';

/** Paths under this prefix inspect and steer the sandbox: no auth, no faults, no latency, not counted. */
export const INSPECTION_PREFIX = '/__sandbox/';

const seedSchema = z.object({ serialNumber: z.string().min(1), listings: z.array(sandboxListingSchema) });

/**
 * The inspection API, for tests and benchmarks in another process. Plain JSON (no envelope);
 * errors are `{ error }` with HTTP 400 or 404.
 *   GET  /__sandbox/stats                 stats()
 *   POST /__sandbox/stats/reset           resetStats(), answers the zeroed stats
 *   POST /__sandbox/configure             configure(body), answers the settings in force (keys redacted)
 *   GET  /__sandbox/listings?serialNumber listings(serialNumber)
 *   GET  /__sandbox/settings?serialNumber settings(serialNumber), null when never edited
 *   POST /__sandbox/seed                  { serialNumber, listings } → { ids }
 */
export async function handleInspection(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  control: SandboxControl,
): Promise<void> {
  const route = `${req.method} ${url.pathname}`;
  const serialNumber = url.searchParams.get('serialNumber');
  switch (route) {
    case 'GET /__sandbox/stats':
      return sendJson(res, 200, control.stats());
    case 'POST /__sandbox/stats/reset':
      control.resetStats();
      return sendJson(res, 200, control.stats());
    case 'GET /__sandbox/listings':
    case 'GET /__sandbox/settings': {
      if (!serialNumber) return sendJson(res, 400, { error: 'serialNumber: required query parameter' });
      const found = route.endsWith('listings')
        ? control.listings(serialNumber)
        : control.settings(serialNumber);
      return sendJson(res, 200, found ?? null);
    }
    case 'POST /__sandbox/configure':
    case 'POST /__sandbox/seed':
      return withJsonBody(req, res, (body) =>
        route.endsWith('seed') ? seed(body, control) : control.configure(parseConfigure(body)),
      );
    default:
      return sendJson(res, 404, { error: `no inspection route ${route}` });
  }
}

function seed(body: unknown, control: SandboxControl): { ids: string[] } {
  const parsed = seedSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) throw new SandboxOptionsError(describeIssues(parsed.error));
  return { ids: control.seed(parsed.data.serialNumber, parsed.data.listings) };
}

async function withJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  act: (body: unknown) => unknown,
): Promise<void> {
  const json = parseJson(await readBody(req));
  if (!json.ok || !isObject(json.value)) return sendJson(res, 400, { error: 'body: expected a JSON object' });
  try {
    return sendJson(res, 200, act(json.value));
  } catch (error) {
    if (!(error instanceof SandboxOptionsError)) throw error;
    return sendJson(res, 400, { error: error.message });
  }
}
