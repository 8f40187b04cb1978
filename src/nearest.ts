/**
 * The known key nearest to a typo, or undefined when none is close: case-insensitive edit distance
 * (a swap of two neighbours counts one) of at most a third of the key's length, at least 1, at most 3.
 */
export function nearestKey(typo: string, known: readonly string[]): string | undefined {
  const budget = Math.min(3, Math.max(1, Math.floor(typo.length / 3)));
  let best: string | undefined;
  let bestDistance = budget + 1;
  for (const key of known) {
    const distance = editDistance(typo.toLowerCase(), key.toLowerCase());
    if (distance < bestDistance) {
      best = key;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: insert, delete, substitute, or swap two neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
