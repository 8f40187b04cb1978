import { describe, expect, it } from 'vitest';
import { listing } from '../../src/testing/listing.ts';
import { BOT, call, sandboxFor } from './helpers.ts';

describe('RealEstateCreate', () => {
  it('stores a valid listing under a new incrementing ID, answered as a string', async () => {
    const sandbox = await sandboxFor();
    const first = await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1) });
    const second = await call(sandbox, 'create', { SerialNumber: BOT, ...listing(2) });
    expect(first).toEqual({ Data: '1', Version: '1.0-sandbox', Success: true, Code: 200, Message: '' });
    expect(second.Data).toBe('2');
    expect(sandbox.listings(BOT)).toEqual([
      { ID: 1, SerialNumber: BOT, ...listing(1) },
      { ID: 2, SerialNumber: BOT, ...listing(2) },
    ]);
  });

  it('refuses an invalid listing with Code 400 and a message naming the field', async () => {
    const sandbox = await sandboxFor();
    const answer = await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1), Bedrooms: 'three' });
    expect(answer).toMatchObject({ Success: false, Code: 400, Data: null });
    expect(answer.Message).toContain('Bedrooms: expected number');
    const missing = await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1), Status: undefined });
    expect(missing.Message).toBe('Status: required');
    const badEnum = await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1), AreaUnit: 'Acres' });
    expect(badEnum.Message).toContain('AreaUnit: expected one of "Square Feet", "Square Meters"');
    const noSerial = await call(sandbox, 'create', listing(1));
    expect(noSerial.Message).toBe('SerialNumber: required');
    expect(sandbox.listings(BOT)).toEqual([]);
  });

  it('is stricter than the spec where it is silent: no unknown field, no empty required string', async () => {
    const sandbox = await sandboxFor();
    // A misspelt field would be dropped silently by a lenient server: the sandbox names it.
    const misspelt = await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1), Bedroom: 3 });
    expect(misspelt).toMatchObject({ Success: false, Code: 400, Message: 'body: unknown field Bedroom' });
    const lower = await call(sandbox, 'create', { serialNumber: BOT, ...listing(1) });
    expect(lower.Message).toBe('SerialNumber: required; body: unknown field serialNumber');
    const empty = await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1), MLSNumber: '' });
    expect(empty.Message).toBe('MLSNumber: must not be empty');
    expect(sandbox.listings(BOT)).toEqual([]);
  });

  it('allows duplicate MLSNumbers', async () => {
    const sandbox = await sandboxFor();
    await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1) });
    const again = await call(sandbox, 'create', { SerialNumber: BOT, ...listing(1) });
    expect(again.Success).toBe(true);
    expect(sandbox.listings(BOT).map((r) => r.MLSNumber)).toEqual(['MLS-0001', 'MLS-0001']);
  });
});

describe('RealEstateUpdate', () => {
  it.each([
    ['NewOaks', (id: string) => id],
    ['MLSNumber', () => 'MLS-0002'],
    ['URL', () => 'https://homes.example/listing/MLS-0002'],
  ] as const)('finds the listing by %s and replaces only the fields sent', async (KeyType, key) => {
    const sandbox = await sandboxFor();
    const [, id] = sandbox.seed(BOT, [listing(1), listing(2), listing(3)]);
    const answer = await call(sandbox, 'update', {
      SerialNumber: BOT,
      Key: key(id ?? ''),
      KeyType,
      Status: 'Sold',
      SalePrice: 470000,
    });
    expect(answer).toMatchObject({ Success: true, Code: 200, Data: 1 });
    const stored = sandbox.listings(BOT);
    expect(stored[1]).toEqual({ ID: 2, SerialNumber: BOT, ...listing(2), Status: 'Sold', SalePrice: 470000 });
    expect(stored[0]).toEqual({ ID: 1, SerialNumber: BOT, ...listing(1) });
  });

  it('updates every duplicate, and answers 0 (still a success) when nothing matches', async () => {
    const sandbox = await sandboxFor();
    sandbox.seed(BOT, [listing(1), listing(1)]);
    const both = await call(sandbox, 'update', {
      SerialNumber: BOT,
      Key: 'MLS-0001',
      KeyType: 'MLSNumber',
      Bedrooms: 4,
    });
    expect(both.Data).toBe(2);
    const none = await call(sandbox, 'update', {
      SerialNumber: BOT,
      Key: 'MLS-0009',
      KeyType: 'MLSNumber',
      Bedrooms: 4,
    });
    expect(none).toMatchObject({ Success: true, Code: 200, Data: 0 });
    const otherBot = await call(sandbox, 'update', {
      SerialNumber: 'bot-2',
      Key: '1',
      KeyType: 'NewOaks',
      Bedrooms: 5,
    });
    expect(otherBot.Data).toBe(0);
    expect(sandbox.listings(BOT).map((r) => r.Bedrooms)).toEqual([4, 4]);
  });

  it('checks Key, KeyType and the types of the fields present', async () => {
    const sandbox = await sandboxFor();
    sandbox.seed(BOT, [listing(1)]);
    const noKey = await call(sandbox, 'update', { SerialNumber: BOT, KeyType: 'NewOaks', Bedrooms: 4 });
    expect(noKey).toMatchObject({ Success: false, Code: 400, Message: 'Key: required' });
    const badKeyType = await call(sandbox, 'update', { SerialNumber: BOT, Key: '1', KeyType: 'ID' });
    expect(badKeyType.Message).toContain('KeyType: expected one of "NewOaks", "MLSNumber", "URL"');
    const badField = await call(sandbox, 'update', {
      SerialNumber: BOT,
      Key: '1',
      KeyType: 'NewOaks',
      Tours: 'Video',
    });
    expect(badField.Message).toContain('Tours: expected one of');
    expect(sandbox.listings(BOT)[0]?.Tours).toBeUndefined();
  });
});

describe('RealEstateDelete', () => {
  it('deletes by each key type and counts the records deleted', async () => {
    const sandbox = await sandboxFor();
    const ids = sandbox.seed(BOT, [listing(1), listing(2), listing(3), listing(4), listing(4)]);
    const byId = await call(sandbox, 'delete', {
      SerialNumber: BOT,
      Keys: [ids[0], '999'],
      KeyType: 'NewOaks',
    });
    expect(byId).toMatchObject({ Success: true, Data: { SuccessCount: 1 } });
    const byUrl = await call(sandbox, 'delete', {
      SerialNumber: BOT,
      Keys: ['https://homes.example/listing/MLS-0002'],
      KeyType: 'URL',
    });
    expect(byUrl.Data).toEqual({ SuccessCount: 1 });
    const byMls = await call(sandbox, 'delete', {
      SerialNumber: BOT,
      Keys: ['MLS-0004'],
      KeyType: 'MLSNumber',
    });
    expect(byMls.Data).toEqual({ SuccessCount: 2 });
    expect(sandbox.listings(BOT).map((r) => r.MLSNumber)).toEqual(['MLS-0003']);
  });

  it('refuses a delete without Keys', async () => {
    const sandbox = await sandboxFor();
    const answer = await call(sandbox, 'delete', { SerialNumber: BOT, Keys: [], KeyType: 'NewOaks' });
    expect(answer).toMatchObject({ Success: false, Code: 400, Message: 'Keys: must not be empty' });
  });
});
