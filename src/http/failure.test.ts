import { describe, expect, it } from 'vitest';
import { classifyRequestError, isRetryableStatus, retryAfterOf } from './failure.ts';

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
  ])('%i → %s', (status, retryable) => {
    expect(isRetryableStatus(status)).toBe(retryable);
  });
});

describe('classifyRequestError', () => {
  const withCode = (code: string, name = 'RequestError') => Object.assign(new Error(code), { code, name });

  it.each([
    ['ECONNRESET', { kind: 'network', retryable: true, requestSent: true }],
    ['ECONNREFUSED', { kind: 'network', retryable: true, requestSent: false }],
    ['ENOTFOUND', { kind: 'network', retryable: true, requestSent: false }],
    ['ERR_STREAM_PREMATURE_CLOSE', { kind: 'network', retryable: true, requestSent: true }],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', { kind: 'network', retryable: false, requestSent: true }],
    ['ERR_TLS_CERT_ALTNAME_INVALID', { kind: 'network', retryable: false, requestSent: true }],
    ['HPE_INVALID_CONSTANT', { kind: 'network', retryable: true, requestSent: true }],
    ['EPROTO', { kind: 'network', retryable: true, requestSent: true }],
    ['ETIMEDOUT', { kind: 'timeout', retryable: true }],
    ['ERR_ABORTED', { kind: 'aborted', retryable: false }],
    // A redirect loop answers the same way on every try.
    ['ERR_TOO_MANY_REDIRECTS', { kind: 'network', retryable: false, requestSent: true }],
  ])('%s', (code, expected) => {
    expect(classifyRequestError(withCode(code))).toMatchObject({ code, ...expected });
  });

  it("reads got's TimeoutError by name and an aborted signal whatever the error", () => {
    expect(classifyRequestError(withCode('ESOCKETTIMEDOUT', 'TimeoutError')).kind).toBe('timeout');
    expect(classifyRequestError(withCode('ECONNRESET'), AbortSignal.abort()).kind).toBe('aborted');
  });
});

describe('retryAfterOf', () => {
  it('reads the header of an answer, first value when repeated', () => {
    expect(retryAfterOf({ 'retry-after': '3' })).toBe(3000);
    expect(retryAfterOf({ 'retry-after': ['1', '9'] })).toBe(1000);
    expect(retryAfterOf({})).toBeUndefined();
  });
});
