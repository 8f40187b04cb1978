import { afterEach } from 'vitest';
import {
  type ResoProvider,
  type ResoProviderOptions,
  startResoProvider,
} from '../../../src/sandbox/reso/index.ts';

const started: ResoProvider[] = [];

/** A provider server for this test, closed after it. */
export async function providerFor(options: ResoProviderOptions): Promise<ResoProvider> {
  const provider = await startResoProvider(options);
  started.push(provider);
  return provider;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((provider) => provider.close()));
});

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely, asserted field by field
  json: any;
}

/** GET over real HTTP (fetch asks for gzip and inflates it). */
export async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, json };
}

/** POST JSON to a control endpoint. */
export async function control(provider: ResoProvider, path: string, body: unknown = {}): Promise<Answer> {
  const response = await fetch(`${provider.url}/__reso${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

/** Follow @odata.nextLink from `url` to the end (or `maxPages`); every page must be HTTP 200. */
export async function readAll(
  url: string,
  headers: Record<string, string>,
  maxPages = 10_000,
): Promise<{ records: Record<string, unknown>[]; pages: string[] }> {
  const records: Record<string, unknown>[] = [];
  const pages: string[] = [];
  let next: string | undefined = url;
  while (next && pages.length < maxPages) {
    pages.push(next);
    const answer = await get(next, headers);
    if (answer.status !== 200)
      throw new Error(`HTTP ${answer.status} at ${next}: ${JSON.stringify(answer.json)}`);
    records.push(...answer.json.value);
    next = answer.json['@odata.nextLink'];
  }
  return { records, pages };
}

/** `$filter` text, URL-encoded. */
export function q(filter: string): string {
  return encodeURIComponent(filter);
}
