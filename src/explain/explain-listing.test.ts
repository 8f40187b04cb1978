import { describe, expect, it } from 'vitest';
import { maskOfFields } from '../reconcile/index.ts';
import { keptReasons } from './explain-listing.ts';

describe('keptReasons', () => {
  const fieldsSet = maskOfFields(['SalePrice', 'Latitude', 'Longitude']);

  it('names the one reason a run keeps the fields for, not every one that may apply (a tester)', () => {
    expect(keptReasons(['Description'], { keep: false, filled: [], fieldsSet })).toBe(
      'the feed sets it on none of its listings',
    );
    expect(
      keptReasons(['Latitude', 'Longitude'], { keep: false, filled: ['Latitude', 'Longitude'], fieldsSet }),
    ).toBe('the platform filled them after a replace or a create (platform-fills)');
    expect(keptReasons(['Description'], { keep: true, filled: [], fieldsSet })).toBe(
      "the feed's unsetFields is keep",
    );
  });

  it('names each field where two reasons apply; none where a field has no known reason', () => {
    expect(keptReasons(['Description', 'Latitude'], { keep: false, filled: ['Latitude'], fieldsSet })).toBe(
      'the feed sets Description on none of its listings; the platform filled Latitude after a replace or a create (platform-fills)',
    );
    expect(keptReasons(['SalePrice'], { keep: false, filled: [], fieldsSet })).toBeUndefined();
    expect(keptReasons(['Description'], { keep: false, filled: [] })).toBeUndefined();
  });
});
