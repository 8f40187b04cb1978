import type { AreaUnit } from './listing-schema.ts';
import { normalizeToken } from './normalize-token.ts';

/** Square feet per unit. The Australian "square" is 100 sq ft. */
const SQFT_PER: Readonly<Record<string, number>> = {
  sqft: 1,
  sqm: 10.763_910_416_709_722,
  acre: 43_560,
  ha: 107_639.104_167_097_22,
  square: 100,
};

const ALIASES: Readonly<Record<string, string>> = {
  sqft: 'sqft',
  sf: 'sqft',
  ft: 'sqft',
  ft2: 'sqft',
  'ft²': 'sqft',
  'ft^2': 'sqft',
  feet: 'sqft',
  squarefeet: 'sqft',
  squarefoot: 'sqft',
  sqfeet: 'sqft',
  sqfoot: 'sqft',
  sqm: 'sqm',
  m: 'sqm',
  m2: 'sqm',
  'm²': 'sqm',
  'm^2': 'sqm',
  sqmeters: 'sqm',
  sqmetres: 'sqm',
  squaremeter: 'sqm',
  squaremeters: 'sqm',
  squaremetre: 'sqm',
  squaremetres: 'sqm',
  meters: 'sqm',
  metres: 'sqm',
  sqmt: 'sqm',
  mq: 'sqm',
  acre: 'acre',
  acres: 'acre',
  ac: 'acre',
  ha: 'ha',
  hectare: 'ha',
  hectares: 'ha',
  square: 'square',
  squares: 'square',
};

/** Canonical unit name (`sqft`, `sqm`, `acre`, `ha`, `square`), or undefined when unknown. */
export function normalizeAreaUnit(unit: string): string | undefined {
  // A feed spells its units a few ways, once per record: remember them (bounded, feed-controlled).
  if (known.has(unit)) return known.get(unit);
  const canonical = canonicalUnit(unit);
  if (known.size < 1000) known.set(unit, canonical);
  return canonical;
}

const known = new Map<string, string | undefined>();

function canonicalUnit(unit: string): string | undefined {
  const token = normalizeToken(unit);
  if (token === 'squarefeet' || token === 'squarefoot') return 'sqft';
  if (token === 'squaremeters' || token === 'squaremetres') return 'sqm';
  return ALIASES[token];
}

/** The listing's AreaUnit as a canonical unit. */
export function listingUnit(unit: AreaUnit): string {
  return unit === 'Square Feet' ? 'sqft' : 'sqm';
}

/** Convert `value` from one canonical unit to another, rounded to 2 decimals. */
export function convertArea(value: number, from: string, to: string): number {
  if (from === to) return value;
  const converted = (value * SQFT_PER[from]!) / SQFT_PER[to]!;
  return Math.round(converted * 100) / 100;
}
