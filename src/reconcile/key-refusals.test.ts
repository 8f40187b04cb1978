import { describe, expect, it } from 'vitest';
import { PlatformError } from '../api/index.ts';
import { HttpStatusError } from '../http/index.ts';
import { KEY_REFUSALS_TO_STOP, KeyRefusals, refusesKey } from './key-refusals.ts';

const envelope = (code: number) => new PlatformError('create', code, 'Unauthorized');
const status = (code: number) =>
  new HttpStatusError(code, `update: HTTP ${code}`, { kind: 'API_TRANSPORT', code: 'E_HTTP' });

describe('refusesKey', () => {
  it('is a 401, in the envelope or as the HTTP status; not a 403 (a record forbidden), nor anything else', () => {
    expect([envelope(401), status(401)].map(refusesKey)).toEqual([true, true]);
    expect(
      [
        envelope(403),
        status(403),
        envelope(400),
        envelope(429),
        status(500),
        status(404),
        new Error('x'),
      ].map(refusesKey),
    ).toEqual([false, false, false, false, false, false, false]);
  });
});

describe('KeyRefusals', () => {
  it(`stops after ${KEY_REFUSALS_TO_STOP} refusals in a row, naming the platform's answer`, () => {
    const refusals = new KeyRefusals();
    for (let i = 1; i < KEY_REFUSALS_TO_STOP; i++) refusals.failed(envelope(401));
    expect(refusals.stopped).toBeUndefined();
    refusals.failed(envelope(401));
    expect(refusals.stopped).toBe(
      `the platform refused the API key for ${KEY_REFUSALS_TO_STOP} writes in a row (create: platform answered Code 401: Unauthorized): writing stopped`,
    );
    // Stopped for good, whatever comes after.
    refusals.done();
    expect(refusals.stopped).toBeDefined();
  });

  it('never stops for refusals among writes that go through, nor for other failures', () => {
    const refusals = new KeyRefusals();
    for (let i = 0; i < 100; i++) {
      refusals.failed(status(401));
      refusals.failed(envelope(403));
      refusals.failed(envelope(400));
      refusals.failed(status(500));
      if (i % (KEY_REFUSALS_TO_STOP - 1) === 0) refusals.done();
    }
    expect(refusals.stopped).toBeUndefined();
  });
});
