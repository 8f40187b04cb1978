import { describe, expect, it } from 'vitest';
import { manualClock, type ResoProvider } from '../../../src/sandbox/reso/index.ts';
import { control, get, providerFor, readAll } from './helpers.ts';

async function tokenOf(trestle: ResoProvider, secret = 'sandbox-secret'): Promise<Response> {
  return fetch(trestle.tokenUrl!, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'sandbox-client',
      client_secret: secret,
      grant_type: 'client_credentials',
      scope: 'api',
    }),
  });
}

async function signedIn(trestle: ResoProvider): Promise<Record<string, string>> {
  const body = (await (await tokenOf(trestle)).json()) as { access_token: string };
  return { Authorization: `Bearer ${body.access_token}` };
}

describe('Trestle: OAuth2 and quotas', () => {
  it('issues 8-hour tokens for the client credentials and refuses others', async () => {
    const trestle = await providerFor({ provider: 'trestle', listings: 30 });
    const bad = await tokenOf(trestle, 'wrong');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'invalid_client' });
    const good = await tokenOf(trestle);
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 28800,
      access_token: expect.any(String),
    });
  });

  it('answers 401 without a valid token, with the quota headers all the same', async () => {
    const trestle = await providerFor({ provider: 'trestle', listings: 30 });
    const answer = await get(`${trestle.apiUrl}/Property`);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    expect(answer.headers.get('hour-quota-limit')).toBe('7200.0');
    expect(answer.headers.get('minute-quota-limit')).toBe('180.0');
  });

  it('expires tokens', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const trestle = await providerFor({ provider: 'trestle', listings: 30, clock, tokenLifetimeSeconds: 10 });
    const auth = await signedIn(trestle);
    expect((await get(`${trestle.apiUrl}/Property`, auth)).status).toBe(200);
    clock.advance(10_000);
    expect((await get(`${trestle.apiUrl}/Property`, auth)).status).toBe(401);
  });

  it('counts down Minute- and Hour-Quota-Available and answers 429 past the minute quota', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const trestle = await providerFor({ provider: 'trestle', listings: 30, clock, limits: { minute: 3 } });
    const auth = await signedIn(trestle);
    const url = `${trestle.apiUrl}/Property?$top=1`;
    const first = await get(url, auth);
    expect(first.headers.get('minute-quota-available')).toBe('2.0');
    expect(first.headers.get('hour-quota-available')).toBe('7199.0');
    expect(Number(first.headers.get('hour-quota-resettime'))).toBe(clock.now() + 3_600_000);
    await get(url, auth);
    await get(url, auth);
    const over = await get(url, auth);
    expect(over.status).toBe(429);
    expect(over.json.error.message).toMatch(/Quota exceeded/);
    expect(over.headers.get('minute-quota-available')).toBe('0.0');
    clock.advance(60_000);
    expect((await get(url, auth)).status).toBe(200);
  });
});

describe('Trestle: queries', () => {
  it('pages 10 by default, refuses $top over 1000, and lets a key-only $select take 300000', async () => {
    const trestle = await providerFor({ provider: 'trestle', listings: 1500 });
    const auth = await signedIn(trestle);
    const first = await get(`${trestle.apiUrl}/Property`, auth);
    expect(first.json.value).toHaveLength(10);
    expect(first.json['@odata.nextLink']).toContain('$skip=10');
    // Trestle sends every field, null where a record has none.
    expect(first.json.value.every((r: object) => 'BedroomsTotal' in r)).toBe(true);
    expect((await get(`${trestle.apiUrl}/Property?$top=1001`, auth)).status).toBe(400);
    const keys = await get(`${trestle.apiUrl}/Property?$select=ListingKey&$top=5000`, auth);
    expect(keys.json.value).toHaveLength(1500);
    expect(Object.keys(keys.json.value[0])).toEqual(['ListingKey']);
  });

  it('refuses a standard query reaching past its row cap with "Error getting data!"', async () => {
    const trestle = await providerFor({ provider: 'trestle', listings: 500, maxQueryRows: 300 });
    const auth = await signedIn(trestle);
    const answer = await get(`${trestle.apiUrl}/Property?$skip=250&$top=100`, auth);
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toContain('Error getting data!');
  });

  it('drops deleted listings at once (no marker) and serves Media by ResourceRecordKey', async () => {
    const trestle = await providerFor({ provider: 'trestle', listings: 50 });
    const auth = await signedIn(trestle);
    const [gone, kept] = trestle.keys(0, 2) as [string, string];
    await control(trestle, '/listings/delete', { keys: [gone] });
    const keys = (await get(`${trestle.apiUrl}/Property?$select=ListingKey&$top=1000`, auth)).json.value.map(
      (r: { ListingKey: string }) => r.ListingKey,
    );
    expect(keys).toHaveLength(49);
    expect(keys).not.toContain(gone);
    const media = await get(
      `${trestle.apiUrl}/Media?$filter=${encodeURIComponent(`ResourceRecordKey eq '${kept}'`)}&$orderby=Order&$top=1000`,
      auth,
    );
    const orders = media.json.value.map((m: { Order: number }) => m.Order);
    expect(orders.length).toBeGreaterThan(1);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(media.json.value.every((m: { ResourceRecordKey: string }) => m.ResourceRecordKey === kept)).toBe(
      true,
    );
  });
});

describe('Trestle: replication', () => {
  it('follows the replication link until a page comes back empty, each record once', async () => {
    const trestle = await providerFor({ provider: 'trestle', listings: 250 });
    const auth = await signedIn(trestle);
    const { records, pages } = await readAll(`${trestle.apiUrl}/Property?$top=100&replication=true`, auth);
    expect(pages).toHaveLength(4);
    expect(pages[1]).toMatch(/\/trestle\/odata\/Property\/replication\?id=[0-9a-f-]+$/);
    expect(new Set(records.map((r) => r.ListingKey)).size).toBe(250);
    expect(records).toHaveLength(250);
  });

  it('expires a replication link after the idle time, and a link in use stays alive', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const trestle = await providerFor({ provider: 'trestle', listings: 50, clock, replicationIdleMs: 2000 });
    const auth = await signedIn(trestle);
    const first = await get(
      `${trestle.apiUrl}/Property?$top=10&replication=true&$orderby=ModificationTimestamp`,
      auth,
    );
    const link = first.json['@odata.nextLink'] as string;
    clock.advance(2000);
    expect((await get(link, auth)).status).toBe(200);
    clock.advance(2000);
    expect((await get(link, auth)).status).toBe(200);
    clock.advance(2001);
    const expired = await get(link, auth);
    expect(expired.status).toBe(404);
    expect(expired.json.error.message).toMatch(/expired/);
  });

  it('refuses $skip and $top over 1000 in replication', async () => {
    const trestle = await providerFor({ provider: 'trestle', listings: 20 });
    const auth = await signedIn(trestle);
    expect((await get(`${trestle.apiUrl}/Property?replication=true&$skip=10`, auth)).status).toBe(400);
    expect((await get(`${trestle.apiUrl}/Property?replication=true&$top=1001`, auth)).status).toBe(400);
  });
});
