import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_PASSWORD, exposureProblem } from './exposure.ts';

const strong = { user: 'operator', password: 'a-long-enough-secret' };

describe('exposureProblem', () => {
  it.each([
    // host, credentials, refused?
    ['127.0.0.1', undefined, false],
    ['127.3.4.5', undefined, false],
    ['::1', undefined, false],
    ['localhost', undefined, false],
    ['0.0.0.0', undefined, true],
    ['::', undefined, true],
    ['10.1.2.3', undefined, true],
    // A name that starts like a loopback address is not one.
    ['127.evil.example', undefined, true],
    ['127.0.0.1.nip.io', undefined, true],
    ['0.0.0.0', strong, false],
    ['0.0.0.0', { user: 'operator', password: 'short-pass' }, true],
    ['127.0.0.1', { user: 'operator', password: 'short-pass' }, false],
    ['0.0.0.0', { user: 'operator', password: EXAMPLE_PASSWORD }, true],
    ['127.0.0.1', { user: 'operator', password: EXAMPLE_PASSWORD }, true],
  ] as const)('%s with %j → refused: %s', (host, credentials, refused) => {
    expect(exposureProblem(host, credentials) !== undefined).toBe(refused);
  });

  it('names what is wrong', () => {
    expect(exposureProblem('0.0.0.0', undefined)).toBe(
      'refusing to serve the queue UI on 0.0.0.0 without UI_USER and UI_PASSWORD (loopback only without them)',
    );
    expect(exposureProblem('0.0.0.0', { user: 'u', password: 'short' })).toBe(
      'refusing to serve the queue UI on 0.0.0.0: UI_PASSWORD is shorter than 12 characters (required beyond loopback)',
    );
  });

  it('knows the password .env.example ships', () => {
    const example = readFileSync(resolve(import.meta.dirname, '../../.env.example'), 'utf8');
    const password = /^UI_PASSWORD=(.*)$/m.exec(example)?.[1];
    expect(password).toBe(EXAMPLE_PASSWORD);
    expect(exposureProblem('0.0.0.0', { user: 'operator', password: String(password) })).toMatch(
      /example password from \.env\.example/,
    );
  });
});
