import { createHash } from 'node:crypto';
import type { SourceConfig } from '../../source-schema.ts';

/**
 * The budget a feed's requests count against: one per provider key, whatever the feeds and workers
 * using it. Named by a hash of the credential's identity (the token; the OAuth2 client and its
 * token URL; the user or header), never the credential itself, and never logged.
 */
export function budgetKeyOf(source: Pick<SourceConfig, 'url' | 'auth'>): string {
  const { auth } = source;
  let identity: string;
  if (auth?.type === 'bearer') identity = `bearer\n${auth.token}`;
  else if (auth?.type === 'oauth2') identity = `oauth2\n${auth.tokenUrl}\n${auth.clientId}`;
  else if (auth?.type === 'basic') identity = `basic\n${originOf(source.url)}\n${auth.username}`;
  else if (auth?.type === 'header') identity = `header\n${originOf(source.url)}\n${auth.name}\n${auth.value}`;
  else identity = `none\n${originOf(source.url)}`;
  return `reso-${createHash('sha256').update(identity).digest('hex').slice(0, 24)}`;
}

function originOf(url: string | undefined): string {
  try {
    return new URL(String(url)).origin;
  } catch {
    return String(url);
  }
}
