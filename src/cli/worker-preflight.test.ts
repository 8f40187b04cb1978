import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.ts';
import { EXAMPLE_UI_PASSWORD, workerStartProblem } from './worker-preflight.ts';

const config = (api: string) => parseConfig(`api: ${api}\nfeeds: []\n`);

describe('workerStartProblem', () => {
  it.each([
    [
      'a key and a password of its own',
      '{ baseUrl: "https://usapi.example", secretKey: k }',
      'pw',
      undefined,
    ],
    [
      'no secret key for a remote platform (a session key alone)',
      '{ baseUrl: "https://usapi.example", sessionKey: s }',
      'pw',
      /api\.secretKey is empty for usapi\.example; set CHATBOT_SECRET_KEY/,
    ],
    ['no key for a local sandbox', '{ baseUrl: "http://127.0.0.1:4010" }', undefined, undefined],
    [
      'the example password',
      '{ baseUrl: "https://usapi.example", secretKey: k }',
      EXAMPLE_UI_PASSWORD,
      /UI_PASSWORD is still the example/,
    ],
  ])('%s', (_name, api, password, problem) => {
    const result = workerStartProblem(config(api), { UI_PASSWORD: password });
    if (problem) expect(result).toMatch(problem);
    else expect(result).toBeUndefined();
  });

  it('knows the password .env.example ships', () => {
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    expect(example).toMatch(new RegExp(`^UI_PASSWORD=${EXAMPLE_UI_PASSWORD}$`, 'm'));
  });
});
