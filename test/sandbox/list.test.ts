import { describe, expect, it } from 'vitest';
import { listing } from '../../src/testing/listing.ts';
import { BOT, call, sandboxFor } from './helpers.ts';

interface Page {
  List: Record<string, unknown>[];
  VirtualCount: number;
}

describe('RealEstateList', () => {
  it('returns records with the quirks of spec 2.4', async () => {
    const sandbox = await sandboxFor();
    sandbox.seed(BOT, [
      listing(1, {
        SaleType: 'for_rent',
        RentPrice: 2450.499,
        SalePrice: undefined,
        Images: ['https://img.test/a.jpg', 'https://img.test/b.jpg'],
        ExtensionColumn: [{ Key: 'Pool', value: 'yes' }],
        Latitude: 40.712777777,
        Longitude: -74.0059722,
        Location: 'Downtown',
      }),
    ]);
    const answer = await call(sandbox, 'list', { SerialNumber: BOT });
    const page = answer.Data as Page;
    expect(answer).toMatchObject({ Success: true, Code: 200, Message: '' });
    expect(page.VirtualCount).toBe(1);
    expect(page.List[0]).toMatchObject({
      ID: 1,
      SaleType: 'For Rent',
      Bedrooms: '3',
      Bathrooms: '2.5',
      RentPrice: '2450.5',
      Price: '2450.5',
      SalePrice: '',
      Area: '1801',
      HOAMonth: '',
      Images: 'https://img.test/a.jpg,https://img.test/b.jpg',
      ExtensionColumn: '[{"Key":"Pool","value":"yes"}]',
      LATITUDE: 40.712778,
      LONGITUDE: -74.005972,
      City: 'Springfield',
      Tours: '',
    });
    expect(page.List[0]).not.toHaveProperty('AreaUnit');
    expect(page.List[0]).not.toHaveProperty('Location');
  });

  it('returns Images as a JSON string when imagesFormat is json', async () => {
    const sandbox = await sandboxFor({ imagesFormat: 'json' });
    sandbox.seed(BOT, [listing(1, { Images: ['https://img.test/a.jpg'] })]);
    const page = (await call(sandbox, 'list', { SerialNumber: BOT })).Data as Page;
    expect(page.List[0]?.Images).toBe('["https://img.test/a.jpg"]');
  });

  it('pages in ID order, 20 by default, VirtualCount the total on every page', async () => {
    const sandbox = await sandboxFor();
    sandbox.seed(
      BOT,
      Array.from({ length: 45 }, (_, i) => listing(i + 1)),
    );
    sandbox.seed('bot-2', [listing(100)]);
    const first = (await call(sandbox, 'list', { SerialNumber: BOT })).Data as Page;
    expect(first.List.map((r) => r.ID)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(first.VirtualCount).toBe(45);
    const third = (await call(sandbox, 'list', { SerialNumber: BOT, PageNumber: 3 })).Data as Page;
    expect(third.List.map((r) => r.ID)).toEqual([41, 42, 43, 44, 45]);
    expect(third.VirtualCount).toBe(45);
    const past = (await call(sandbox, 'list', { SerialNumber: BOT, PageNumber: 9 })).Data as Page;
    expect(past).toEqual({ List: [], VirtualCount: 45 });
  });

  it('caps PageSize at maxPageSize without a word', async () => {
    const sandbox = await sandboxFor({ maxPageSize: 10 });
    sandbox.seed(
      BOT,
      Array.from({ length: 25 }, (_, i) => listing(i + 1)),
    );
    const answer = await call(sandbox, 'list', { SerialNumber: BOT, PageSize: 100 });
    const page = answer.Data as Page;
    expect(answer.Success).toBe(true);
    expect(page.List).toHaveLength(10);
    expect(page.VirtualCount).toBe(25);
    const second = (await call(sandbox, 'list', { SerialNumber: BOT, PageSize: 100, PageNumber: 2 }))
      .Data as Page;
    expect(second.List.map((r) => r.ID)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('filters by CityName (any case), SaleType and MLSNumber', async () => {
    const sandbox = await sandboxFor();
    sandbox.seed(BOT, [
      listing(1, { City: 'Springfield' }),
      listing(2, { City: 'Shelbyville' }),
      listing(3, { City: 'SPRINGFIELD', SaleType: 'for_rent', RentPrice: 2000 }),
      listing(4, { City: undefined }),
    ]);
    const ids = async (filters: Record<string, unknown>) =>
      ((await call(sandbox, 'list', { SerialNumber: BOT, ...filters })).Data as Page).List.map((r) => r.ID);
    expect(await ids({ CityName: 'springfield' })).toEqual([1, 3]);
    expect(await ids({ SaleType: 'for_rent' })).toEqual([3]);
    expect(await ids({ CityName: 'Springfield', SaleType: 'for_sale' })).toEqual([1]);
    expect(await ids({ MLSNumber: 'MLS-0002' })).toEqual([2]);
    expect(await ids({ CityName: '', MLSNumber: '' })).toEqual([1, 2, 3, 4]);
    const filtered = await call(sandbox, 'list', { SerialNumber: BOT, CityName: 'springfield', PageSize: 1 });
    expect((filtered.Data as Page).VirtualCount).toBe(2);
  });

  it('refuses a list without SerialNumber or with a bad SaleType', async () => {
    const sandbox = await sandboxFor();
    expect(await call(sandbox, 'list', {})).toMatchObject({
      Success: false,
      Code: 400,
      Message: 'SerialNumber: required',
    });
    const bad = await call(sandbox, 'list', { SerialNumber: BOT, SaleType: 'For Sale' });
    expect(bad.Message).toContain('SaleType: expected one of "for_sale", "for_rent"');
  });
});
