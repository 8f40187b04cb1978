/**
 * A media reference as an absolute http(s) URL: absolute ones as they are, `//host/x.jpg` as
 * https, a relative name (`123_IMG_00.jpg`, `bilder/1.jpg`) against the base URL; undefined when it
 * cannot be one (relative with no base, another scheme, not a URL).
 */
export function absoluteMediaUrl(reference: string, base: string | undefined): string | undefined {
  const text = reference.trim();
  if (text === '') return undefined;
  // Most feed URLs are already in the form `new URL(text).href` gives back: skip the parser for them.
  if (isCanonical(text)) return text;
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

/**
 * `http(s)://host/path` that the WHATWG URL parser would give back unchanged: a lower-case host of
 * letters, digits and hyphens whose last label starts with a letter (so not an IPv4 address in
 * disguise), no port, user info, query or fragment, a path of characters it never encodes and
 * without dot segments (`.`, `..`, `%2e`). Anything else goes through `new URL`.
 */
const CANONICAL = /^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

export function isCanonical(text: string): boolean {
  // A dot segment needs `/.` or `%2e`: most paths have neither, and skip the second regexp.
  const dots = text.includes('/.') || text.includes('%');
  return CANONICAL.test(text) && !(dots && DOT_SEGMENT.test(text));
}

/** Distinct values, in order. */
export function distinctValues(values: readonly string[]): string[] {
  return [...new Set(values)];
}
