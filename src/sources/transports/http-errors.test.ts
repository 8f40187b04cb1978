import { describe, expect, it } from 'vitest';
import { errorReasonOf, feedStatusError } from './http-errors.ts';

describe('the reason an error answer gives (a new user saw only "HTTP 400")', () => {
  it.each([
    ['{"error":{"code":"400","message":"$top must be at most 1000"}}', '$top must be at most 1000'],
    [
      '{"error":"invalid_client","error_description":"Client authentication failed"}',
      'invalid_client: Client authentication failed',
    ],
    ['{"error":"invalid_grant"}', 'invalid_grant'],
    ['{"message":"Your access token has been suspended"}', 'Your access token has been suspended'],
    ['Too many requests,\n slow down', 'Too many requests, slow down'],
    ['<html><body>Bad Request</body></html>', undefined],
    ['', undefined],
    ['{"value":[]}', undefined],
  ])('%s → %s', (body, reason) => expect(errorReasonOf(body)).toBe(reason));

  it('blanks the feed’s own secrets and the shapes a reviewer found passing', () => {
    const said = (text: string, secrets: string[] = []) =>
      errorReasonOf(JSON.stringify({ message: text }), secrets);
    expect(said('Invalid API key: sk_live_9f8e7d6c5b', ['sk_live_9f8e7d6c5b'])).toBe('Invalid API key: …');
    expect(said('client_secret abc123XYZ is wrong')).toBe('client_secret … is wrong');
    expect(said('apikey=SECRET and X-Api-Key: SECRETXYZ')).toBe('apikey=… and X-Api-Key: …');
    expect(said('Basic dXNlcjpodW50ZXIy refused')).toBe('Basic … refused');
    expect(said('cannot reach https://user:hunter2@host.example/x')).toBe(
      'cannot reach https://…@host.example/x',
    );
    expect(said('refresh token RT-abc123 expired')).toBe('refresh token … expired');
    expect(said('bad eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc-def_123')).toBe('bad …');
    // Words are words: a suspended token is said so.
    expect(said('Your access token has been suspended')).toBe('Your access token has been suspended');
  });

  it('blanks what looks like a credential, and cuts a long text', () => {
    expect(errorReasonOf('{"message":"bad token=abc123secret for Bearer xyz.789"}')).toBe(
      'bad token=… for Bearer …',
    );
    expect(errorReasonOf('x'.repeat(500))?.length).toBe(200);
  });

  it('is said in the error’s message', () => {
    const error = feedStatusError(
      400,
      'mls.example/odata/Property',
      undefined,
      '{"error":{"message":"$top must be at most 1000"}}',
    );
    expect(error.message).toBe(
      'HTTP 400 from mls.example/odata/Property: the server said "$top must be at most 1000"',
    );
    expect(feedStatusError(503, 'mls.example/x').message).toBe('HTTP 503 from mls.example/x');
  });
});
