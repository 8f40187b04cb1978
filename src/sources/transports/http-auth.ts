import type { AuthConfig } from '../source-schema.ts';

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
