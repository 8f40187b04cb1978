import { z } from 'zod';
import { FeedSyncError } from '../errors.ts';
import { describeIssues } from './issues.ts';
import type { SandboxConfigure, SandboxOptions } from './options.ts';
import { OPERATIONS } from './routes.ts';

const rate = z.number().min(0).max(1);
const ms = z.number().int().min(0);
const key = z.string().nullable().optional();

const faultsSchema = z.strictObject({
  error500Rate: rate.optional(),
  rate429Rate: rate.optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
  hangRate: rate.optional(),
  hangMs: ms.optional(),
  malformedJsonRate: rate.optional(),
  ambiguousCreateRate: rate.optional(),
  refuseRate: rate.optional(),
});

/** A change of settings at run time, as accepted by `configure()` and `POST /__sandbox/configure`. */
export const configureSchema = z.strictObject({
  secretKey: key,
  sessionKey: key,
  latencyMs: ms.optional(),
  maxPageSize: z.number().int().min(1).optional(),
  rateLimitPerSecond: z.number().int().min(0).optional(),
  rateLimitRetryAfter: z.boolean().optional(),
  rateLimitRetryAfterSeconds: z.number().int().min(0).optional(),
  faults: faultsSchema.optional(),
  faultOperations: z.array(z.enum(OPERATIONS)).optional(),
  seed: z.number().int().optional(),
  imagesFormat: z.enum(['comma', 'json']).optional(),
  updateRequiresAll: z.boolean().optional(),
  streamFraming: z.enum(['sse', 'ndjson']).optional(),
  streamDelayMs: ms.optional(),
}) satisfies z.ZodType<SandboxConfigure>;

export const optionsSchema = configureSchema.extend({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
}) satisfies z.ZodType<SandboxOptions>;

/** A bad option or configure body; the message names the option and the reason. */
export class SandboxOptionsError extends FeedSyncError {
  constructor(message: string) {
    super(message, { kind: 'CONFIG_INVALID', code: 'E_SANDBOX_OPTIONS' });
  }
}

export function parseConfigure(input: unknown): SandboxConfigure {
  const parsed = configureSchema.safeParse(input, { reportInput: true });
  if (!parsed.success)
    throw new SandboxOptionsError(`invalid sandbox settings: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

export function parseOptions(input: unknown): SandboxOptions {
  const parsed = optionsSchema.safeParse(input ?? {}, { reportInput: true });
  if (!parsed.success)
    throw new SandboxOptionsError(`invalid sandbox options: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
