/** `Active Under Contract`, `active-under-contract`, `ACTIVE_UNDER_CONTRACT` → `activeundercontract`. */
export function normalizeToken(value: string): string {
  return value.toLowerCase().replace(/[\s\-_./]+/g, '');
}

/** Index a map by normalized key, later maps overriding earlier ones. */
export function normalizeMap(...maps: (Readonly<Record<string, string>> | undefined)[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const map of maps) {
    if (!map) continue;
    for (const [key, value] of Object.entries(map)) out.set(normalizeToken(key), value);
  }
  return out;
}
