/**
 * A feed URL as an absolute http(s) URL, or undefined when it cannot be one: relative URLs
 * (`/photos/1.jpg`) resolve against `base`, protocol-less ones (`//cdn.example/1.jpg`) take `https:`
 * (the base's protocol when there is a base), and anything else (`ftp:`, `data:`, a bare file name
 * without a base) is undefined.
 */
export function absoluteUrl(url: string, base: string | undefined): string | undefined {
  const text = url.trim();
  if (text === '') return undefined;
  if (/^https?:\/\//i.test(text)) return text;
  if (text.startsWith('//')) return `${base?.startsWith('http:') ? 'http:' : 'https:'}${text}`;
  // `www.agency.example/x`: a host without its scheme, common in hand-kept exports.
  if (/^www\.[^/\s]+\.[a-z]{2,}(?:[/?#]|$)/i.test(text)) return `https://${text}`;
  if (base === undefined || /^[a-z][a-z\d+.-]*:/i.test(text)) return undefined;
  try {
    return new URL(text, base).href;
  } catch {
    return undefined;
  }
}
