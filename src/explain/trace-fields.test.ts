import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.ts';
import { compileMapping } from '../normalize/index.ts';
import { traceFields } from './trace-fields.ts';

/** A feed as a config declares it, and what the run's mapping makes of one record. */
function trace(mapping: Record<string, unknown>, record: Record<string, unknown>) {
  const text = JSON.stringify({
    api: { secretKey: 'k' },
    feeds: [{ id: 'acme', chatbot: 'BOT', source: { format: 'csv', path: 'a.csv' }, mapping }],
  });
  const feed = parseConfig(text).feeds[0]!;
  const now = new Date('2026-11-25T00:00:00Z');
  const compiled = compileMapping(feed.mapping, { now });
  const mapped = compiled.map(record, true);
  const values = Object.fromEntries(Object.entries(mapped.listing).filter(([, v]) => v !== undefined));
  const traces = traceFields({
    feed,
    mapping: compiled.mapping,
    record,
    values,
    unknown: [...(mapped.unknown ?? [])],
    now,
  });
  return Object.fromEntries(traces.map((t) => [t.field, t]));
}

describe('traceFields', () => {
  it('names the path and raw value behind each field, and the conversion', () => {
    const t = trace(
      {
        fields: {
          MLSNumber: 'MLS #',
          SalePrice: 'List Price',
          BuildingArea: { from: 'Size', unit: 'm2' },
          Status: 'Status',
          CurrencySymbol: { const: '$' },
          Url: { template: 'https://acme.example/{MLS #}' },
        },
        areaUnit: 'Square Feet',
      },
      { 'MLS #': 'ML1', 'List Price': '$1.2M', Size: '100', Status: 'Pending' },
    );
    expect(t.SalePrice).toEqual({
      field: 'SalePrice',
      value: 1_200_000,
      origin: 'config',
      rule: '"List Price"',
      inputs: [{ path: 'List Price', value: '$1.2M' }],
      conversion: 'money',
    });
    expect(t.BuildingArea).toMatchObject({ value: 1076.39, conversion: 'area sqm → Square Feet' });
    expect(t.Status).toMatchObject({ value: 'Active', conversion: '"Pending" → Active' });
    expect(t.CurrencySymbol).toMatchObject({ rule: 'constant "$"', inputs: [] });
    expect(t.Url).toMatchObject({
      value: 'https://acme.example/ML1',
      rule: 'template "https://acme.example/{MLS #}"',
      inputs: [{ path: 'MLS #', value: 'ML1' }],
    });
    expect(t.AreaUnit).toMatchObject({ value: 'Square Feet', rule: 'mapping.areaUnit', origin: 'computed' });
  });

  it('says which of several alternatives gave the value, and when a default or the marker did', () => {
    const t = trace(
      {
        fields: {
          MLSNumber: 'MLS',
          SalePrice: [{ from: 'Sold Price' }, { from: 'Price' }],
          YearBuilt: 'Built',
          CurrencySymbol: 'Currency',
        },
        defaults: { CurrencySymbol: 'EUR' },
      },
      { MLS: 'ML1', Price: '900' },
    );
    expect(t.SalePrice).toMatchObject({
      value: 900,
      alternative: 2,
      alternatives: 2,
      inputs: [{ path: 'Price', value: '900' }],
    });
    expect(t.CurrencySymbol).toMatchObject({
      value: '€',
      conversion: '"EUR" → €',
      origin: 'default',
      rule: 'defaults.CurrencySymbol',
    });
    expect(t.YearBuilt).toMatchObject({ value: 0, origin: 'unknown marker' });
  });

  it('a preset’s rules say so; a value that does not parse has no value and names its input', () => {
    const t = trace(
      { preset: 'reso', fields: { Url: { template: 'https://x.example/{ListingId}' } } },
      {
        ListingId: 'R-1',
        ListPrice: 'call us',
        StandardStatus: 'Active',
        PropertyType: 'Residential',
      },
    );
    expect(t.MLSNumber).toMatchObject({
      value: 'R-1',
      origin: 'preset reso',
      inputs: [{ path: 'ListingId', value: 'R-1' }],
    });
    expect(t.Url).toMatchObject({ origin: 'config' });
    expect(t.SalePrice?.value).toBeUndefined();
    expect(t.SalePrice?.inputs).toContainEqual({ path: 'ListPrice', value: 'call us' });
    expect(t.SalePrice?.conversion).toBeUndefined();
  });

  it('ExtensionColumn: one trace per fact with a value, its own rule and inputs; the empty ones left out', () => {
    const t = trace(
      {
        preset: 'reso',
        fields: { Url: { template: 'https://x.example/{ListingId}' } },
      },
      {
        ListingId: 'R-2',
        ListPrice: 500000,
        StandardStatus: 'Active',
        PropertyType: 'Residential',
        ListOfficeName: 'Example Realty',
        PoolPrivateYN: true,
      },
    );
    const facts = Object.keys(t).filter((f) => f.startsWith('ExtensionColumn'));
    // Only the facts the record gives, each a line of its own: never one line of every fact key.
    expect(facts).toEqual(['ExtensionColumn[Office]', 'ExtensionColumn[Pool]']);
    expect(t['ExtensionColumn[Office]']).toMatchObject({
      value: 'Example Realty',
      origin: 'preset reso',
      inputs: [{ path: 'ListOfficeName', value: 'Example Realty' }],
    });
    expect(t['ExtensionColumn[Office]']?.rule).toContain('"ListOfficeName"');
    expect(t['ExtensionColumn[Pool]']?.inputs).toEqual([{ path: 'PoolPrivateYN', value: true }]);
  });

  it('an unset field whose condition failed says which condition, with the value it read', () => {
    const t = trace(
      { preset: 'reso' },
      { ListingId: 'R-3', ListPrice: 265000, StandardStatus: 'Active', PropertyType: 'Residential' },
    );
    expect(t.RentPrice).toMatchObject({
      value: undefined,
      rule: '"LeaseAmount" or "ListPrice", when PropertyType is "ResidentialLease" or "CommercialLease"',
      unset: 'PropertyType is "Residential", not "ResidentialLease" or "CommercialLease"',
    });
    // A value the rule's condition let through says nothing of the kind.
    expect(t.SalePrice).toMatchObject({ value: 265000 });
    expect(t.SalePrice?.unset).toBeUndefined();
    const lease = trace(
      { preset: 'reso' },
      { ListingId: 'R-4', ListPrice: 2400, StandardStatus: 'Active', PropertyType: 'ResidentialLease' },
    );
    expect(lease.SalePrice?.value).toBeUndefined();
    expect(lease.SalePrice?.unset).toBe(
      'alternative 1: StandardStatus is "Active", not "Closed" and PropertyType is "ResidentialLease", which the rule excludes; alternative 2: PropertyType is "ResidentialLease", which the rule excludes',
    );
  });
});
