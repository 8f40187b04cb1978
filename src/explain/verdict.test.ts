import { describe, expect, it } from 'vitest';
import type { Classification } from './types.ts';
import { verdictOf } from './verdict.ts';

const context = { feedId: 'acme', mode: 'full' as const, graceDays: 0 };
const hash = { field: 'ExtensionColumn[feed-sync:hash]', from: 'aaa', to: 'bbb' };

describe('verdictOf', () => {
  it.each<[string, Classification[], string, RegExp]>([
    ['in sync', [{ kind: 'unchanged', id: 7 }], 'in sync', /^in sync: the platform already has/],
    ['a create', [{ kind: 'create' }], 'will write', /^a sync would create$/],
    [
      'an update, the hash tag left out',
      [{ kind: 'update', id: 7, adopt: false, changes: [{ field: 'SalePrice', from: 1, to: 2 }, hash] }],
      'will write',
      /^a sync would update ID 7$/,
    ],
    [
      'a held record',
      [
        {
          kind: 'held',
          ids: [7],
          reason: 'not_a_number',
          message: 'Row 8 of a.csv: Beds "x" is not a number',
        },
      ],
      'nothing written',
      /held: its last feed record is rejected \(Row 8 of a\.csv: Beds "x" is not a number\); ID 7 stays exactly as it is/,
    ],
    [
      'a broken row',
      [
        {
          kind: 'held',
          ids: [7],
          reason: 'in_broken_row',
          message: 'key appears in the shifted row 9 of a.csv',
        },
      ],
      'nothing written',
      /held: the key appears in a broken record \(the shifted row 9 of a\.csv\)/,
    ],
    [
      'another feed’s listing',
      [{ kind: 'foreign', id: 7, owner: 'other' }],
      'nothing written',
      /ID 7 belongs to feed other: not this feed's to touch/,
    ],
    [
      'gone, in grace',
      [
        {
          kind: 'grace',
          id: 7,
          reason: 'gone',
          since: '2026-11-20T09:00:00.000Z',
          until: '2026-11-23T09:00:00.000Z',
          action: 'delete',
        },
      ],
      'nothing written',
      /gone from the feed since 2026-11-20 09:00 UTC, in grace until 2026-11-23 09:00 UTC/,
    ],
    ['gone', [{ kind: 'delete', id: 7, reason: 'gone' }], 'will write', /^a sync would delete ID 7$/],
    ['marked Sold', [{ kind: 'sold', id: 7, from: 'Active' }], 'will write', /^a sync would mark Sold ID 7$/],
  ])('%s', (_name, classification, state, summary) => {
    const verdict = verdictOf(classification, context);
    expect(verdict.state).toBe(state);
    expect(verdict.summary).toMatch(summary);
    expect(verdict.classification).toBe(classification);
  });

  it('an update shows each field old → new; a change of the hash alone says why', () => {
    const price = { field: 'SalePrice', from: 1, to: 2 };
    const [line] = verdictOf(
      [{ kind: 'update', id: 7, adopt: false, changes: [price, hash] }],
      context,
    ).lines;
    expect(line).toMatchObject({ action: 'update', id: 7, changes: [price] });
    expect(line?.text).toBe('a sync would update ID 7: 1 field differs');
    const [alone] = verdictOf([{ kind: 'update', id: 7, adopt: false, changes: [hash] }], context).lines;
    expect(alone?.changes).toEqual([hash]);
    expect(alone?.text).toContain('only the record hash differs');
  });

  it('fields the platform keeps that the feed leaves unset are named, for the listing that keeps them', () => {
    const kept = { ...context, kept: new Map([[7, ['SalePrice', 'Description']]]) };
    const said =
      'the platform keeps SalePrice, Description, which the feed leaves unset: a sync does not clear them where the feed sets them on none of its listings, its unsetFields is keep, or the platform filled them after a replace or a create (platform-fills)';
    expect(verdictOf([{ kind: 'unchanged', id: 7 }], kept).summary).toBe(
      `in sync: the platform already has the feed’s listing; a sync writes nothing (${said})`,
    );
    const [alone] = verdictOf([{ kind: 'update', id: 7, adopt: false, changes: [hash] }], kept).lines;
    expect(alone?.text).toBe(
      `a sync would update ID 7: only the record hash differs: the feed no longer sets SalePrice, Description (${said}), or a field the list never returns (AreaUnit, Location) changed`,
    );
    // Another listing's fields (a duplicate the sync deletes) are not this one's.
    const [other] = verdictOf(
      [
        { kind: 'update', id: 8, adopt: false, changes: [hash] },
        { kind: 'delete', id: 7, reason: 'duplicate' },
      ],
      kept,
    ).lines;
    expect(other?.text).toBe(
      'a sync would update ID 8: only the record hash differs: a field the list never returns (AreaUnit, Location) changed',
    );
    // The reason that applies, where the explainer knows it (a tester read three joined by "or").
    const known = { ...kept, keptWhy: () => 'the feed sets them on none of its listings' };
    expect(verdictOf([{ kind: 'unchanged', id: 7 }], known).summary).toBe(
      'in sync: the platform already has the feed’s listing; a sync writes nothing (the platform keeps SalePrice, Description, which the feed leaves unset: a sync does not clear them: the feed sets them on none of its listings)',
    );
    // None kept: the sentence is the plain one.
    expect(verdictOf([{ kind: 'unchanged', id: 7 }], { ...context, kept: new Map() }).summary).toBe(
      'in sync: the platform already has the feed’s listing; a sync writes nothing',
    );
  });

  it('an update that clears a value the feed no longer sends is a replace, and says which', () => {
    const price = { field: 'SalePrice', from: 275000, to: undefined };
    const verdict = verdictOf(
      [{ kind: 'update', id: 7, adopt: false, changes: [price, hash], replace: true }],
      context,
    );
    expect(verdict.summary).toBe('a sync would replace ID 7');
    expect(verdict.lines[0]?.text).toBe(
      'a sync would replace ID 7 (1 field differs): the feed leaves SalePrice unset, and no value the platform takes clears a field, so the listing is created anew and ID 7 deleted',
    );
    expect(verdict.lines[0]?.changes).toEqual([price]);
  });

  it("a replace says so when the last run's replaces were held by guard mass-replace", () => {
    const price = { field: 'SalePrice', from: 275000, to: undefined };
    const classification = [
      { kind: 'update' as const, id: 7, adopt: false, changes: [price, hash], replace: true as const },
    ];
    const free = verdictOf(classification, context);
    expect(free.lines[0]?.text).not.toContain('mass-replace');
    expect([free.state, free.mayBeHeldBy, free.summary]).toEqual([
      'will write',
      undefined,
      'a sync would replace ID 7',
    ]);
    const held = verdictOf(classification, { ...context, replacesHeld: true });
    // `--json` readers see it beside the state, not only in the line's words.
    expect([held.state, held.mayBeHeldBy, held.summary]).toEqual([
      'will write',
      ['mass-replace'],
      'a sync would replace ID 7, unless guard mass-replace holds the replace as it did in the last run that compared',
    ]);
    // A plain update is never held by it.
    const update = [{ kind: 'update' as const, id: 7, adopt: false, changes: [hash] }];
    expect(verdictOf(update, { ...context, replacesHeld: true }).mayBeHeldBy).toBeUndefined();
    expect(held.lines[0]?.text).toContain(
      'deleted; the last run that compared held its replaces (guard mass-replace: more than maxDeleteShare of the listings), and while as many are due a sync holds this clear too (the listing left as it is, or updated without the clear where other fields changed), unless run with --allow-mass-delete',
    );
  });

  it('a delete after a grace says the grace is over; a mark Sold shows its one field', () => {
    const withGrace = { ...context, graceDays: 3 };
    const [gone] = verdictOf(
      [{ kind: 'delete', id: 7, reason: 'gone', since: '2026-11-20T09:00:00Z' }],
      withGrace,
    ).lines;
    expect(gone?.text).toContain('gone from the feed (gone since 2026-11-20 09:00 UTC; its grace is over)');
    const [sold] = verdictOf([{ kind: 'sold', id: 7, from: 'Active' }], context).lines;
    expect(sold?.changes).toEqual([{ field: 'Status', from: 'Active', to: 'Sold' }]);
  });

  it('a key another feed id tags: a renamed feed (no feed of the config has the id) says the fix', () => {
    const skipped: Classification[] = [
      { kind: 'skipped', id: 7, reason: 'owned-by-other-feed', owner: 'old' },
    ];
    const [renamed] = verdictOf(skipped, { ...context, feedIds: ['acme'] }).lines;
    expect(renamed?.text).toBe(
      "ID 7 belongs to feed old, which this config does not have: the feed's listing is skipped, never written; if old was renamed to acme, add `adoptFrom: [old]` to it",
    );
    const [shared] = verdictOf(skipped, { ...context, feedIds: ['acme', 'old'] }).lines;
    expect(shared?.text).toBe("ID 7 belongs to feed old: the feed's listing is skipped, never duplicated");
  });

  it('an adoption of a listing a former id tags says so, not "added by hand"', () => {
    const tag = { field: 'ExtensionColumn[feed-sync:feed]', from: 'old', to: 'acme' };
    const [former] = verdictOf([{ kind: 'update', id: 7, adopt: true, changes: [tag, hash] }], context).lines;
    expect(former?.text).toBe(
      "ID 7 is tagged for feed old, a former id of this feed (adoptFrom): a sync would tag it as acme's and update it (1 field differs)",
    );
    const untagged = { field: 'ExtensionColumn[feed-sync:feed]', from: undefined, to: 'acme' };
    const [byHand] = verdictOf([{ kind: 'update', id: 7, adopt: true, changes: [untagged] }], context).lines;
    expect(byHand?.text).toContain('has the key but no owner tag (added by hand)');
  });

  it('cannot judge without both sides', () => {
    const verdict = verdictOf([], { ...context, platformUnknown: 'the platform was not read: E_NETWORK' });
    expect(verdict).toMatchObject({
      state: 'unknown',
      summary: 'unknown: the platform was not read: E_NETWORK',
    });
  });
});
