import { describe, expect, it } from 'vitest';
import { conjuncts, fieldUses, lowerBoundOf, matches, orCount } from './odata-eval.ts';
import { FilterSyntaxError, parseFilter } from './odata-filter.ts';

const record = {
  OriginatingSystemName: 'actris',
  ModificationTimestamp: '2024-01-02T03:04:05.000Z',
  ListPrice: 450000,
  MlgCanView: true,
  City: "O'Fallon",
  ListingContractDate: '2023-12-01',
  BedroomsTotal: undefined,
};

describe('parseFilter and matches', () => {
  it.each([
    ["OriginatingSystemName eq 'actris'", true],
    ["OriginatingSystemName ne 'actris'", false],
    ['ModificationTimestamp gt 2024-01-02T03:04:04.99Z', true],
    ['ModificationTimestamp gt 2024-01-02T03:04:05Z', false],
    ['ModificationTimestamp ge 2024-01-02T03:04:05.000Z', true],
    ['ModificationTimestamp lt 2024-01-02T05:04:05+02:00', false],
    ['ListPrice le 450000 and ListPrice ge 450000', true],
    ['ListPrice lt 1e5 or MlgCanView eq true', true],
    ['not (MlgCanView eq true)', false],
    ["City eq 'O''Fallon'", true],
    ["City in ('Austin', 'O''Fallon')", true],
    ['ListingContractDate ge 2023-12-01 and ListingContractDate lt 2023-12-02', true],
    ['BedroomsTotal eq null', true],
    ['BedroomsTotal ne 3', true],
    ['BedroomsTotal gt 1', false],
    ["(ListPrice gt 1 or City eq 'x') and MlgCanView eq false", false],
  ])('%s → %s', (text, expected) => {
    expect(matches(parseFilter(text), record)).toBe(expected);
  });

  it('binds and tighter than or', () => {
    const filter = parseFilter("City eq 'x' or ListPrice gt 1 and MlgCanView eq false");
    expect(filter.type).toBe('or');
    expect(matches(filter, record)).toBe(false);
  });

  it.each([
    ["City eq 'x", 'unterminated string'],
    ['City eq', 'expected a value, got the end'],
    ['City xx 1', 'expected a comparison operator'],
    ["contains(City, 'A')", 'function contains() is not supported'],
    ['City eq Austin', 'strings are quoted'],
    ["City eq 'a' )", 'unexpected text after the end'],
    ['City eq 2024-13-45T00:00Z', 'invalid datetime'],
  ])('refuses %s naming the position', (text, message) => {
    expect(() => parseFilter(text)).toThrow(FilterSyntaxError);
    expect(() => parseFilter(text)).toThrow(message);
  });
});

describe('filter analysis', () => {
  const filter = parseFilter(
    "OriginatingSystemName eq 'actris' and ModificationTimestamp gt 2024-01-01T00:00:00Z and (City eq 'a' or City eq 'b' or City eq 'c') and ModificationTimestamp ge 2024-02-01T00:00:00Z",
  );

  it('lists top-level conjuncts, counts ors and field uses', () => {
    expect(conjuncts(filter)).toHaveLength(4);
    expect(orCount(filter)).toBe(2);
    expect(fieldUses(filter, 'City')).toBe(3);
    expect(fieldUses(filter, 'OriginatingSystemName')).toBe(1);
  });

  it('finds the tightest lower bound on a timestamp, ignoring bounds under an or', () => {
    expect(lowerBoundOf(filter, 'ModificationTimestamp')).toBe(Date.parse('2024-02-01T00:00:00Z'));
    expect(
      lowerBoundOf(
        parseFilter('ModificationTimestamp gt 2024-01-01T00:00:00Z or ListPrice gt 1'),
        'ModificationTimestamp',
      ),
    ).toBeUndefined();
  });
});
