import { describe, expect, it } from 'vitest';
import type { Plan } from './plan-types.ts';
import { keysStillListed } from './still-listed.ts';

const planOf = (keys: string[]) =>
  ({
    deletes: [
      ...keys.map((key, i) => ({ key, id: i + 1, reason: 'gone' as const })),
      { key: 'R-1', id: 99, reason: 'removed' as const },
    ],
  }) as unknown as Plan;

describe('keysStillListed', () => {
  it('asks about the gone ones only; keeps those listed; says what it confirmed', async () => {
    const asked: string[][] = [];
    const still = await keysStillListed(planOf(['A', 'B', 'C']), async (keys) => {
      asked.push([...keys]);
      return { listed: new Set(['B']), asked: keys.length };
    });
    expect(asked).toEqual([['A', 'B', 'C']]);
    expect([...(still?.listed ?? [])]).toEqual(['B']);
    expect(still?.decision.message).toBe(
      '1 listing(s) gone from the read are still listed at the provider (the feed changed while it was read): kept, not deleted (B); 2 confirmed gone at the provider: deleted',
    );
  });

  it('keeps what it could not ask about when the provider’s budget or rate stopped it (a reviewer found them deleted)', async () => {
    const still = await keysStillListed(planOf(['A', 'B', 'C']), async () => ({
      listed: new Set<string>(),
      asked: 1,
      problem: 'the per-hour budget is spent until 2026-12-02T12:00:00.000Z',
      paused: true,
    }));
    expect([...(still?.listed ?? [])].sort()).toEqual(['B', 'C']);
    expect(still?.decision.message).toBe(
      '1 confirmed gone at the provider: deleted; 2 not asked about (the per-hour budget is spent until 2026-12-02T12:00:00.000Z): kept until a run can ask',
    );
  });

  it('keeps the gone listings beyond what a run asks about, for a later run to ask (a tester: deleted unasked)', async () => {
    const asked: string[][] = [];
    const still = await keysStillListed(
      planOf(['A', 'B', 'C', 'D']),
      async (keys) => {
        asked.push([...keys]);
        return { listed: new Set(['A']), asked: keys.length };
      },
      undefined,
      false,
      2,
    );
    expect(asked).toEqual([['A', 'B']]);
    expect([...(still?.listed ?? [])]).toEqual(['A', 'C', 'D']);
    expect([...(still?.considered ?? [])]).toEqual(['A', 'B']);
    expect(still?.decision.message).toBe(
      '1 listing(s) gone from the read are still listed at the provider (the feed changed while it was read): kept, not deleted (A); 1 confirmed gone at the provider: deleted; 2 more not asked about (more than 2 a run): kept until a run asks',
    );
  });

  it('a refused query deletes as the read found, and says so; nothing gone, nothing asked', async () => {
    const still = await keysStillListed(planOf(['A']), async () => ({
      listed: new Set<string>(),
      asked: 0,
      problem: 'HTTP 400: the server said "ListingId is not searchable"',
    }));
    expect(still?.listed.size).toBe(0);
    expect(still?.decision.message).toMatch(
      /^1 not asked about \(HTTP 400: .*\): deleted as the read found them$/,
    );
    let called = false;
    expect(
      await keysStillListed(planOf([]), async () => {
        called = true;
        return { listed: new Set<string>(), asked: 0 };
      }),
    ).toBeUndefined();
    expect(called).toBe(false);
  });

  it('asks about the marks Sold too, where gone listings are marked (a reviewer: marked Sold, then back)', async () => {
    const plan = {
      ...planOf(['A']),
      updates: [
        { key: 'M', id: 5, markSold: true },
        { key: 'U', id: 6 },
      ],
    } as unknown as Plan;
    const asked: string[] = [];
    await keysStillListed(
      plan,
      async (keys) => {
        asked.push(...keys);
        return { listed: new Set<string>(), asked: keys.length };
      },
      undefined,
      true,
    );
    expect(asked).toEqual(['A', 'M']);
  });
});
