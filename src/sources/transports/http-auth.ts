import type { AuthConfig, SourceConfig } from '../source-schema.ts';

/** Request headers for static auth. OAuth2 is handled by the RESO token cache, not here. */
export function feedAuthHeaders(auth: AuthConfig | undefined): Record<string, string> {
  if (!auth) return {};
  switch (auth.type) {
    case 'basic':
      return {
        authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`,
      };
    case 'bearer':
      return { authorization: `Bearer ${auth.token}` };
    case 'header':
      return { [auth.name.toLowerCase()]: auth.value };
    case 'oauth2':
      return {};
  }
}

/**
 * The secrets a feed's config holds (its auth's token, password, client secret or header value; its
 * URL's password and query values, its headers' values), for blanking in what a server says back.
 */
export function secretsOf(source: Pick<SourceConfig, 'auth' | 'url' | 'headers'>): string[] {
  const secrets: string[] = [];
  const auth = source.auth;
  if (auth?.type === 'basic')
    secrets.push(auth.password, Buffer.from(`${auth.username}:${auth.password}`).toString('base64'));
  if (auth?.type === 'bearer') secrets.push(auth.token);
  if (auth?.type === 'header') secrets.push(auth.value);
  if (auth?.type === 'oauth2') secrets.push(auth.clientSecret);
  for (const value of Object.values(source.headers ?? {})) secrets.push(value);
  if (source.url) {
    try {
      const url = new URL(source.url);
      if (url.password) secrets.push(decodeURIComponent(url.password));
      for (const value of url.searchParams.values()) secrets.push(value);
    } catch {}
  }
  // Short values (`1`, `true`) are no secret and would blank every word holding them.
  return secrets.filter((s) => typeof s === 'string' && s.length >= 6);
}
