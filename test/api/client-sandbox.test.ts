import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnswerEvent,
  canonicalizeRemote,
  type PlatformClient,
  PlatformError,
} from '../../src/api/index.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { platformClient } from '../helpers/platform-client.ts';

const SERIAL = 'bot-client-it';

const listing: Listing = {
  SaleType: 'for_rent',
  Status: 'PreOnMarket',
  CurrencySymbol: '€',
  PropertyType: 'Apartment',
  Bedrooms: 2,
  Bathrooms: 1.5,
  Url: 'https://acme.example/l/r-9',
  MLSNumber: 'R-9',
  YearBuilt: 2004,
  DaysOnMarket: 0,
  LotArea: 0,
  BuildingArea: 84.5,
  AreaUnit: 'Square Meters',
  ParkingSpots: 1,
  Images: ['https://img.example/a.jpg', 'https://img.example/b.jpg'],
  Tours: '3D',
  Description: 'Bright, with a view — "quoted", comma, semicolon;',
  ExtensionColumn: [
    { Key: 'feed-sync:feed', value: 'acme' },
    { Key: 'Agent', value: 'J. Doe' },
  ],
  City: 'Lisboa',
  ZIP: '1100-001',
  Latitude: 38.7223,
  Longitude: -9.1393,
  RentPrice: 1450,
  DepositFee: 2900,
  SpaceType: 'Entire place',
};

let sandbox: Sandbox;
let client: PlatformClient;

beforeAll(async () => {
  sandbox = await startSandbox({ secretKey: 'sk-it', sessionKey: 'sess-it' });
  client = platformClient({ baseUrl: sandbox.url, secretKey: 'sk-it', timeoutMs: 5000 });
});
afterAll(() => sandbox.close());

describe('client against the sandbox over HTTP', () => {
  let id = '';

  it('creates a listing and reads it back, canonical form equal to what was sent', async () => {
    id = await client.createListing({ ...listing, SerialNumber: SERIAL });
    expect(id).toMatch(/^\d+$/);
    const page = await client.listListings({ SerialNumber: SERIAL, PageSize: 10 });
    expect(page.VirtualCount).toBe(1);
    const [record] = page.List;
    // The quirks are really there on the wire…
    expect(record).toMatchObject({
      SaleType: 'For Rent',
      Bedrooms: '2',
      ExtensionColumn: expect.any(String),
    });
    // …and the canonicalizer undoes them.
    const { AreaUnit: _unit, ...returnable } = listing;
    expect(canonicalizeRemote(record!)).toEqual({ id: Number(id), listing: returnable });
  });

  it('updates by NewOaks key and by MLSNumber', async () => {
    await expect(
      client.updateListing({
        ...listing,
        SerialNumber: SERIAL,
        RentPrice: 1500,
        Key: id,
        KeyType: 'NewOaks',
      }),
    ).resolves.toBe(1);
    await expect(
      client.updateListing({
        ...listing,
        SerialNumber: SERIAL,
        RentPrice: 1500,
        Bedrooms: 3,
        Key: 'R-9',
        KeyType: 'MLSNumber',
      }),
    ).resolves.toBe(1);
    const page = await client.listListings({ SerialNumber: SERIAL, MLSNumber: 'R-9' });
    expect(canonicalizeRemote(page.List[0]!).listing).toMatchObject({ RentPrice: 1500, Bedrooms: 3 });
  });

  it('names the bad field when the platform refuses a create', async () => {
    // Our client refuses such a request before sending it, so ask the platform directly.
    const response = await fetch(`${sandbox.url}/chat/Chatbot/RealEstateCreate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'sk-it' },
      body: JSON.stringify({ ...listing, SerialNumber: SERIAL, Bedrooms: 'three' }),
    });
    const body = (await response.json()) as { Success: boolean; Message: string };
    expect(body.Success).toBe(false);
    expect(body.Message).toMatch(/Bedrooms/);
  });

  it('gets a PlatformError with Code 401 when the key is wrong', async () => {
    const stranger = platformClient({ baseUrl: sandbox.url, secretKey: 'wrong', timeoutMs: 5000 });
    const error = await stranger.listListings({ SerialNumber: SERIAL }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ platformCode: 401 });
  });

  it('edits settings, asks plain and streamed', async () => {
    await expect(client.editSettings(SERIAL, { Name: 'Acme Assistant', MessageLimit: -1 })).resolves.toBe(1);
    expect(sandbox.settings(SERIAL)).toMatchObject({ Name: 'Acme Assistant', MessageLimit: -1 });
    const answer = await client.ask({ serialNumber: SERIAL, content: 'Any flats?' });
    expect(answer.content).toMatch(/1 listings/);
    const events: AnswerEvent[] = [];
    for await (const event of client.askStream({ sessionID: answer.sessionID, content: 'Any flats?' }))
      events.push(event);
    const final = events.at(-1);
    expect(events.filter((e) => e.type === 'piece').length).toBeGreaterThan(1);
    expect(final).toMatchObject({ type: 'final', answer: expect.stringMatching(/1 listings/) });
    const joined = events.flatMap((e) => (e.type === 'piece' ? [e.content] : [])).join('');
    expect(joined).toBe(final?.type === 'final' ? final.answer : '');
  });

  it('deletes by key', async () => {
    await expect(
      client.deleteListings({ SerialNumber: SERIAL, Keys: [id], KeyType: 'NewOaks' }),
    ).resolves.toBe(1);
    expect(sandbox.listings(SERIAL)).toEqual([]);
  });
});
