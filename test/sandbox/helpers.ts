import { afterEach } from 'vitest';
import { PATHS } from '../../src/api/schemas.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.ts';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** An envelope as a test reads it. */
export interface EnvelopeBody {
  Data: unknown;
  Version: string;
  Success: boolean;
  Code: number;
  Message: string;
}

const started: Sandbox[] = [];

/** A sandbox for this test, closed after it. */
export async function sandboxFor(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  started.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

/** POST a JSON body (or a raw string) to a path of the sandbox, over real HTTP. */
export async function post(
  sandbox: Sandbox,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(sandbox.url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Call an operation and return its envelope (asserting HTTP 200). */
export async function call(
  sandbox: Sandbox,
  operation: keyof typeof PATHS,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<EnvelopeBody> {
  const answer = await post(sandbox, PATHS[operation], body, headers);
  if (answer.status !== 200) throw new Error(`${operation}: HTTP ${answer.status}: ${answer.text}`);
  return answer.json as EnvelopeBody;
}

export const BOT = 'bot-1';
