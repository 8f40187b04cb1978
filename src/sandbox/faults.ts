import type { FaultOptions } from './options.ts';
import type { Operation } from './routes.ts';
import type { FaultKind } from './stats.ts';

/** Rate of each fault kind, in the order a draw tries them. */
const RATE_OF: readonly [FaultKind, keyof FaultOptions][] = [
  ['error500', 'error500Rate'],
  ['rate429', 'rate429Rate'],
  ['hang', 'hangRate'],
  ['malformedJson', 'malformedJsonRate'],
  ['ambiguousCreate', 'ambiguousCreateRate'],
  ['refused', 'refuseRate'],
];

const WRITES: readonly Operation[] = ['create', 'update', 'delete'];

/**
 * Pick the fault for one request from one draw `r` in [0, 1): the kinds share the unit interval in
 * the order above, so rates that add up to more than 1 favour the earlier kinds. One draw per
 * request keeps the sequence repeatable whatever the rates. Ambiguous create applies to create only,
 * a refusal to writes only.
 */
export function pickFault(r: number, faults: FaultOptions, operation: Operation): FaultKind | undefined {
  let upper = 0;
  for (const [kind, rateKey] of RATE_OF) {
    if (kind === 'ambiguousCreate' && operation !== 'create') continue;
    if (kind === 'refused' && !WRITES.includes(operation)) continue;
    upper += faults[rateKey];
    if (r < upper) return kind;
  }
  return undefined;
}
