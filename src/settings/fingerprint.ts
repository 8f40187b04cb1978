import { createHash } from 'node:crypto';
import type { ChatbotSettings } from './settings-schema.ts';

/** Canonical JSON: keys sorted, so the same settings in another order give the same fingerprint. */
function canonical(settings: ChatbotSettings): string {
  const entries = Object.entries(settings).filter(([, value]) => value !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

/**
 * Identifies the settings as sent. The platform has no read operation, so this fingerprint of the
 * last successful push is the only way to know whether a push would change anything.
 */
export function fingerprintSettings(settings: ChatbotSettings): string {
  return `v1:${createHash('sha256').update(canonical(settings)).digest('hex')}`;
}
