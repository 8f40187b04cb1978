/**
 * A media reference as an absolute http(s) URL: absolute ones as they are, `//host/x.jpg` as
 * https, a relative name (`123_IMG_00.jpg`, `bilder/1.jpg`) against the base URL; undefined when it
 * cannot be one (relative with no base, another scheme, not a URL).
 */
export function absoluteMediaUrl(reference: string, base: string | undefined): string | undefined {
  const text = reference.trim();
  if (text === '') return undefined;
  try {
    if (/^https?:\/\//i.test(text)) return new URL(text).href;
    if (text.startsWith('//')) return new URL(`https:${text}`).href;
    if (/^[a-z][a-z0-9+.-]*:/i.test(text) || base === undefined) return undefined;
    const url = new URL(text, base.endsWith('/') ? base : `${base}/`);
    return /^https?:$/.test(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Distinct values, in order. */
export function distinctValues(values: readonly string[]): string[] {
  return [...new Set(values)];
}
