import type { z } from 'zod';
import { InvalidJsonError, PlatformError, SchemaError } from './errors.ts';
import { envelopeSchema, type Operation } from './schemas.ts';

function pathOf(issue: z.core.$ZodIssue, prefix: string): string {
  return [prefix, ...issue.path.map(String)].join('.');
}

/** Parse a response body as JSON, or fail with InvalidJsonError. */
export function parseJson(operation: Operation, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidJsonError(operation, error);
  }
}

/**
 * The envelope, handled in one place (spec 4.0, 7): `Success: false` or a `Code` other than 200 is a
 * PlatformError; otherwise `Data` is validated with the operation's schema. A missing `Success`
 * with Code 200 is read as success (tolerant reading).
 */
export function unwrapEnvelope<S extends z.ZodType>(
  operation: Operation,
  body: unknown,
  dataSchema: S,
): z.output<S> {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    throw new SchemaError(
      operation,
      issue ? pathOf(issue, '(envelope)') : '(envelope)',
      issue?.message ?? 'not an object',
    );
  }
  const { Success, Code, Message, Data } = envelope.data;
  if (Success === false || (Code !== undefined && Code !== 200)) {
    throw new PlatformError(operation, Code, Message ?? '');
  }
  const data = dataSchema.safeParse(Data);
  if (!data.success) {
    const issue = data.error.issues[0];
    throw new SchemaError(operation, issue ? pathOf(issue, 'Data') : 'Data', issue?.message ?? 'invalid');
  }
  return data.data;
}
