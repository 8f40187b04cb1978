import { describe, expect, it } from 'vitest';
import { compileMapping } from '../compile-mapping.ts';
import type { MappingConfig } from '../mapping-schema.ts';
import { withPresetHooks } from './preset-hooks.ts';

const mapping: MappingConfig = { preset: 'kyero' };
const kyero = withPresetHooks(compileMapping(mapping), mapping, {});
const property = (price: string, freq = 'sale') => ({
  id: 'P-1',
  ref: 'P-1',
  price,
  price_freq: freq,
  type: 'villa',
  beds: '3',
  baths: '2',
  town: 'Javea',
});

describe('kyero: a price of 0 (a new user’s Spanish CRM)', () => {
  it('is a price on request: left unset with a fact saying so, never €0 on the chatbot', () => {
    for (const zero of ['0', '0.00', '00']) {
      const { listing } = kyero.map(property(zero));
      expect(listing.SalePrice).toBeUndefined();
      expect(listing.ExtensionColumn).toContainEqual({ Key: 'Price', value: 'on request' });
    }
    const rent = kyero.map(property('0', 'month')).listing;
    expect(rent.RentPrice).toBeUndefined();
  });

  it('a price is read as ever, with no such fact', () => {
    const { listing } = kyero.map(property('275.000'));
    expect(listing.SalePrice).toBe(275_000);
    expect(JSON.stringify(listing.ExtensionColumn ?? [])).not.toContain('"Price"');
  });
});
