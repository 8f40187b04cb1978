import { describe, expect, it } from 'vitest';
import { ingestFeed } from '../../src/ingest/index.ts';
import type { Listing } from '../../src/normalize/listing-schema.ts';
import { fixtureFeed } from '../helpers/fixture-feeds.ts';

/**
 * Each preset with only `preset:` (and the one line a format without a listing URL asks for), on
 * fixtures written from what vendors publish: the variants of issue 21 §1 and the facts of §2.
 */
const now = new Date('2026-11-01T12:00:00Z');

async function ingest(id: string, overrides?: Parameters<typeof fixtureFeed>[1]) {
  const result = await ingestFeed(fixtureFeed(id, overrides), { state: {}, now: () => now });
  const byKey = new Map(result.listings.map((l) => [l.MLSNumber, l]));
  const listing = (key: string): Listing => {
    const found = byKey.get(key);
    if (!found) throw new Error(`${id}: no listing ${key} (have ${[...byKey.keys()].join(', ')})`);
    return found;
  };
  return { result, listing };
}

/** ExtensionColumn as a plain object (keys are unique per listing). */
const facts = (listing: Listing) =>
  Object.fromEntries((listing.ExtensionColumn ?? []).map((e) => [e.Key, e.value]));

describe('blm: optional columns, the whole code table, letting files, overseas 3i', () => {
  it('an agency export without BATHROOMS: every row accepted, bathrooms the unknown marker', async () => {
    const { result, listing } = await ingest('blm-agency-sales');
    expect(result.rejections).toEqual([]);
    expect(result.stats).toMatchObject({ records: 4, valid: 4 });
    expect(result.unknownMarkers).toMatchObject({ Bathrooms: 4 });
    expect(listing('55210_CH01')).toMatchObject({
      Bedrooms: 4,
      Bathrooms: 0,
      PropertyType: 'Character Property',
    });
    // Codes beyond the common ones arrive as their labels, never as bare numbers.
    expect(listing('55210_HU02').PropertyType).toBe('House');
    expect(listing('55210_MH03').PropertyType).toBe('Manor House');
    expect(facts(listing('55210_CH01'))).toMatchObject({
      'Price qualifier': 'Guide Price',
      Tenure: 'Freehold',
      Features: 'Inglenook fireplace; Walled garden; Three reception rooms; Off-street parking',
    });
    expect(facts(listing('55210_NB04'))).toMatchObject({ 'New build': 'yes', 'Price qualifier': 'From' });
  });

  it('a v3 letting file: no rejection, rents to monthly, letting facts in words', async () => {
    const { result, listing } = await ingest('blm-lettings');
    expect(result.rejections).toEqual([]);
    expect(listing('88001_L100')).toMatchObject({ SaleType: 'for_rent', RentPrice: 1150, DepositFee: 1326 });
    expect(facts(listing('88001_L100'))).toMatchObject({
      Furnished: 'Unfurnished',
      'Let type': 'Long term',
      'Available from': '1 Dec 2026',
      'Minimum term': '12 months',
    });
    // N means "not included or unknown" in BLM: no "Bills included" fact at all.
    expect(facts(listing('88001_L100'))['Bills included']).toBeUndefined();
    const student = listing('88001_L101');
    expect(student).toMatchObject({ PropertyType: 'House of Multiple Occupation', RentPrice: 585 });
    expect(facts(student)).toMatchObject({
      'Let type': 'Student',
      Furnished: 'Furnished',
      'Rent frequency': 'Per person per week',
      'Bills included': 'water, gas, electricity, TV licence, internet',
      Appliances: 'washing machine, dishwasher',
      Security: 'burglar alarm',
      'Administration fee': '£95 inc. VAT per tenant',
      'Virtual tour': 'https://tours.letting.example/l101',
    });
    expect(listing('88001_L102').PropertyType).toBe('Flat Share');
    expect(listing('88001_L103')).toMatchObject({ PropertyType: 'Light Industrial', RentPrice: 1500 });
  });

  it('an overseas 3i file: its address columns are read, and no currency is invented', async () => {
    const { result, listing } = await ingest('blm-overseas');
    expect(result.rejections).toEqual([]);
    expect(listing('40770_ES01')).toMatchObject({
      Address: 'Villa Sol, Calle de Ejemplo 4',
      City: 'Ejemploville',
      State: 'Alicante',
      ZIP: '03700',
      Latitude: 38.7401,
      Longitude: 0.1502,
      CurrencySymbol: '€', // the feed's own line: defaults: { CurrencySymbol: EUR }
      PropertyType: 'Detached Villa',
    });
    expect(facts(listing('40770_PT02'))).toMatchObject({
      Country: 'Portugal',
      Development: 'Exemplo Gardens',
    });
    // Without the feed saying it, a 3i listing has no currency: rejected by name, never given pounds.
    const bare = await ingest('blm-overseas', { mapping: { defaults: undefined } });
    expect(bare.result.listings).toEqual([]);
    expect(bare.result.rejections.map((r) => [r.key, r.field, r.reason])).toEqual([
      ['40770_ES01', 'CurrencySymbol', 'missing'],
      ['40770_PT02', 'CurrencySymbol', 'missing'],
      ['40770_ES03', 'CurrencySymbol', 'missing'],
    ]);
  });
});

describe('reaxml: CRM variants', () => {
  it('reads latitude/longitude inside <address>, a studio, and ranges (lower bound, range kept)', async () => {
    const { result, listing } = await ingest('reaxml-crm-variants');
    expect(result.rejections).toEqual([]);
    expect(listing('AGT009-RES-201')).toMatchObject({ Latitude: -37.8012, Longitude: 144.9011 });
    expect(listing('AGT009-REN-301')).toMatchObject({ Bedrooms: 0, Latitude: -37.804, RentPrice: 1820 });
    const offices = listing('AGT010-COM-701');
    expect(offices).toMatchObject({ SalePrice: 450_000, BuildingArea: 120, LotArea: 1000, ParkingSpots: 6 });
    expect(facts(offices)).toMatchObject({
      'Price range': '$450,000–1,150,000',
      'Floor area range': '120–410 m²',
      'Land area range': '0.1–0.35 ha',
      Highlights: 'Street front; Lift access',
      Tenancy: 'tenanted investment',
    });
  });

  it('carries features, allowances, agents, inspections and the auction as facts', async () => {
    const { listing } = await ingest('reaxml-crm-variants');
    expect(facts(listing('AGT009-RES-201'))).toMatchObject({
      Agent: 'Jo Placeholder, 0400 000 001, jo@agency.example; Sam Example, 03 9000 0000',
      'Open house': 'Sat 21 Nov 11:00–11:30; Wed 25 Nov 17:30–18:00',
      Auction: 'Sat 28 Nov 2026 11:00',
      Pool: 'in-ground',
      Cooling: 'ducted, split system',
      Heating: 'ducted',
      Parking: '2 garages, remote-controlled garage',
      Rooms: '1 ensuite, 3 toilets, 2 living areas',
      'Outdoor space': 'deck, outdoor entertaining area, fully fenced',
      Features: 'Veggie garden, chicken coop, study, built-in wardrobes, dishwasher',
      'Eco features': 'solar panels, water tank',
      'Energy rating': '6.5 stars',
    });
    expect(facts(listing('AGT009-REN-301'))).toMatchObject({
      'Pets allowed': 'yes',
      Furnished: 'yes',
      'Available from': '1 Dec 2026',
      'Open house': 'Sat 10:00–10:15',
    });
  });
});

describe('openimmo: portal and CRM exports', () => {
  it('takes SaleType from the price kind when vermarktungsart is absent; Status Active in a full export', async () => {
    const { result, listing } = await ingest('openimmo-portal');
    expect(result.rejections).toEqual([]);
    expect(listing('R-501')).toMatchObject({ SaleType: 'for_rent', Status: 'Active', RentPrice: 1650 });
    expect(listing('W-502')).toMatchObject({ SaleType: 'for_sale', Status: 'Active', SalePrice: 689_000 });
    expect(listing('Z-503')).toMatchObject({ SaleType: 'for_rent', PropertyType: 'Room', RentPrice: 590 });
    // No anzahl_schlafzimmer (optional in OpenImmo): the marker, not a rejection.
    expect(listing('R-501').Bedrooms).toBe(0);
    expect(result.unknownMarkers).toMatchObject({ Bedrooms: 2 });
  });

  it('does not publish an address the agent does not release', async () => {
    const { listing } = await ingest('openimmo-portal');
    const hidden = listing('W-502');
    expect([hidden.Address, hidden.Latitude, hidden.Longitude]).toEqual([undefined, undefined, undefined]);
    expect(hidden).toMatchObject({ City: 'München', ZIP: '80331' });
    expect(listing('R-501')).toMatchObject({ Address: 'Beispielweg 7', Latitude: 50.9401 });
  });

  it('translates equipment codes to English, keeps German text, carries contact and energy facts', async () => {
    const { listing } = await ingest('openimmo-portal');
    expect(facts(listing('R-501'))).toMatchObject({
      'Property kind': 'house, terraced house',
      Heating: 'underfloor heating, air-source heat pump, solar',
      Kitchen: 'fitted kitchen',
      Bathroom: 'shower, bathtub',
      Flooring: 'parquet, tiles',
      Furnished: 'part furnished',
      'Pets allowed': 'yes',
      'Energy rating': 'A',
      // German text kept (`Strom`); the date as the other date facts write it (it was ISO).
      'Energy certificate': 'demand-based, 42.3 kWh/m² a year, Strom, valid until 31 May 2031',
      Agent: 'Erika Beispiel, 0221 000001, erika@makler.example',
      Office: 'Beispiel Immobilien GmbH',
      Distances: 'primary school 0.4 km, metro/suburban rail 0.25 km, recreation area 1.2 km',
      'Available from': '1 Feb 2027',
      Rooms: '4.5',
      'Location description': 'Ruhige Seitenstraße, Grundschule und Bahn zu Fuß erreichbar.',
    });
    expect(facts(listing('W-502'))).toMatchObject({
      Floor: '4 of 5',
      Lift: 'passenger lift',
      Parking: 'underground garage',
      'Outdoor space': 'balcony/terrace facing south, west',
      'Air conditioning': 'yes',
      View: 'mountain view',
      "Buyer's commission": '3,57 % inkl. 19 % MwSt.',
      'Available from': 'nach Vereinbarung',
      'Year built': 'um 1925',
    });
    expect(facts(listing('Z-503'))).toMatchObject({ 'Pets allowed': 'no', Furnished: 'fully furnished' });
  });
});

describe('kyero: what CRMs write in a v3 feed', () => {
  it('reads the leading number of a free-text area and keeps the text; dashes are an empty cell', async () => {
    const { result, listing } = await ingest('kyero-crm-variants');
    expect(result.rejections).toEqual([]);
    expect(listing('KY-V-01')).toMatchObject({ BuildingArea: 50, LotArea: 0 });
    expect(facts(listing('KY-V-01'))['Built area (as given)']).toBe('50 + 75 terrace');
    // `---` is as empty as `-` and `--`: the unknown marker, like a missing plot.
    expect(listing('KY-V-02')).toMatchObject({ BuildingArea: 0, LotArea: 0 });
    expect(listing('KY-V-03')).toMatchObject({ BuildingArea: 120, LotArea: 5400, Bedrooms: 0, Bathrooms: 0 });
    expect(facts(listing('KY-V-03'))).toMatchObject({ 'Built area (as given)': '120m2 aprox.' });
    expect(facts(listing('KY-V-03'))['Plot (as given)']).toBeUndefined();
  });

  it('facts: pool as text (0 is unknown, so no fact), energy ratings, tenure, contact, tour', async () => {
    const { listing } = await ingest('kyero-crm-variants');
    expect(listing('KY-V-01').Tours).toBe('3D');
    expect(facts(listing('KY-V-01'))).toMatchObject({
      Features: 'Terrace, Air conditioning, Ascensor',
      Pool: 'Private',
      'New build': 'yes',
      'Energy rating': 'B',
      'Emissions rating': 'C',
      Contact: 'ventas@inmo.example, +34 600 000 001',
      'Cadastral reference': '1234567AB1234A0001XY',
      Country: 'Spain',
    });
    const old = facts(listing('KY-V-02'));
    expect(old.Pool).toBeUndefined();
    expect(old).toMatchObject({
      Tenure: 'leasehold',
      'Part ownership': 'yes',
      'Energy rating': 'exempt or pending',
    });
  });
});

describe('listhub: the 2008-03 schema, units, and details', () => {
  it('2008-03: photos as <Photo><URL>; LotSize without a unit is acres (that schema’s unit)', async () => {
    const { result, listing } = await ingest('listhub-2008');
    expect(result.rejections).toEqual([]);
    expect(listing('LH08-1')).toMatchObject({
      LotArea: 250_470, // 5.75 acres
      BuildingArea: 2880,
      Images: [
        'https://photos.brokerage08.example/LH08-1/1.jpeg',
        'https://photos.brokerage08.example/LH08-1/2.jpeg',
      ],
    });
    expect(listing('LH08-2')).toMatchObject({
      LotArea: 15_999.98, // 0.367309 acres
      Images: ['https://photos.brokerage08.example/LH08-2/1.jpeg'],
    });
    expect(facts(listing('LH08-1'))).toMatchObject({
      Agent: 'Pat Sample, 555-010-9040, pat@brokerage08.example',
      Brokerage: 'Sample Country Realty, 555-010-9040',
      'School district': 'Sample County Schools',
      Neighborhood: 'Rural North',
    });
  });

  it('2012-03: commons:areaUnits decides the unit; buyer facts and attribution in words', async () => {
    const { result, listing } = await ingest('listhub-details');
    expect(result.rejections).toEqual([]);
    expect(listing('LH12-1')).toMatchObject({ LotArea: 10_890, BuildingArea: 2450 });
    expect(facts(listing('LH12-1'))).toMatchObject({
      Agent: 'Gil Example, 555-010-1234, gil@springvale-realty.example',
      Office: 'Springvale Realty, Lakeside, 555-010-1000, lakeside@springvale-realty.example',
      'Open house': 'Sat 7 Nov 13:00–16:00; Sun 8 Nov 11:00–13:00',
      Appliances: 'Dishwasher, Refrigerator, Washer',
      Cooling: 'Central A/C',
      Heating: 'Forced Air, Natural Gas',
      Pool: 'yes',
      Waterfront: 'yes',
      View: 'Lake, Mountain',
      Schools: 'Valley View (Elementary); Springvale High (High)',
      Expenses: 'Home Owner Assessments Fee: 85 Monthly',
    });
    // Empty <Bedrooms/> and <Bathrooms/> (the schema: "empty when no information is available").
    const lot = listing('LH12-2');
    expect(lot).toMatchObject({ Bedrooms: 0, Bathrooms: 0, LotArea: 108_900 });
    expect(facts(lot)).toMatchObject({ Pool: 'no', Waterfront: 'no' });
    expect(facts(lot).View).toBeUndefined();
  });
});

describe('zillow: details a buyer or renter asks about', () => {
  it('agent, office, open house, schools, rich details in words', async () => {
    const { result, listing } = await ingest('zillow-details');
    expect(result.rejections).toEqual([]);
    expect(facts(listing('ZD-1'))).toMatchObject({
      Agent: 'Dana Example, 206-555-0101, dana@brokerage.example',
      Office: 'Sample Brokerage, 206-555-0199',
      'Open house': 'Sat 7 Nov 13:00–15:00',
      Heating: 'Forced air, Gas',
      Pool: 'no',
      View: 'Mountain, Territorial',
      'Outdoor space': 'deck',
      Features: 'Built-in bookshelves, fireplace',
      Schools: 'Elementary: Maple Elementary, High: Sampletown High',
      Fees: 'HOA: 600 Annually',
    });
    expect(listing('ZD-1').HOAMonth).toBe(50);
  });

  it('a rental: pets, utilities, availability and lease term in words', async () => {
    const { listing } = await ingest('zillow-details');
    expect(facts(listing('ZD-2'))).toMatchObject({
      'Pets allowed': 'cats, small dogs',
      'Utilities included': 'water, sewage, trash',
      'Available from': '1 Dec 2026',
      'Lease term': 'one year',
      Furnished: 'yes',
    });
  });
});

describe('reso: land and ranch listings, attribution and Data Dictionary facts', () => {
  it('a land/ranch or farm listing without BedroomsTotal is the unknown marker, never a rejection', async () => {
    const { result, listing } = await ingest('reso-land-facts');
    expect(result.rejections).toEqual([]);
    expect(listing('RF-1')).toMatchObject({
      PropertyType: 'Ranch',
      Bedrooms: 0,
      Bathrooms: 0,
      LotArea: 1_742_400,
    });
    expect(listing('RF-2')).toMatchObject({ PropertyType: 'Agriculture', Bedrooms: 0 });
    // Every Data Dictionary field is optional: a condo the MLS gave no bedroom count is the marker too.
    expect(listing('RF-4')).toMatchObject({ Bedrooms: 0, Bathrooms: 0 });
    expect(result.unknownMarkers).toMatchObject({ Bedrooms: 3, Bathrooms: 3 });
  });

  it('carries the listing agent and office with their contacts, as IDX display rules want', async () => {
    const { listing } = await ingest('reso-land-facts');
    expect(facts(listing('RF-1'))).toMatchObject({
      Agent: 'Rae Rancher, 512-555-0101',
      Office: 'Hill Country Land Co., 512-555-0100',
      MLS: 'examplemls',
    });
    expect(facts(listing('RF-3'))).toMatchObject({
      Agent: 'Sam Seller, 512-555-0201, sam@broker.example',
      Office: 'Example Realty, 512-555-0200, office@broker.example',
      'Co-listing agent': 'Chris Partner, 512-555-0202',
    });
  });

  it('carries the buyer facts in words; broker-only and canceled open houses and private fields stay out', async () => {
    const { listing } = await ingest('reso-land-facts');
    const house = facts(listing('RF-3'));
    expect(house).toMatchObject({
      'Open house': 'Sat 7 Nov 18:00–20:00 UTC',
      Pool: 'private',
      'Pool features': 'In Ground, Heated',
      'Pets allowed': 'cats, dogs, size limit',
      Heating: 'Forced Air, Natural Gas',
      Cooling: 'Central Air, Ceiling Fan(s)',
      'Garage spaces': '2',
      View: 'Hills, Panoramic',
      Waterfront: 'no',
      'HOA fee includes': 'Common Area Maintenance, Trash',
      Appliances: 'Dishwasher, Gas Range, Microwave',
      Schools: 'Elementary: Example Springs Elementary, High: Example Springs High',
    });
    const all = JSON.stringify(listing('RF-3').ExtensionColumn);
    expect(all).not.toContain('Lockbox');
    expect(all).not.toContain('motivated');
  });
});
