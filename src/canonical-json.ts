/**
 * JSON with object keys sorted at every depth (undefined values left out, as JSON does), so the
 * same data in another key order gives the same text: a config compared with the last one, settings
 * fingerprinted.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
