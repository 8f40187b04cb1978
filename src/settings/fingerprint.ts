import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.ts';
import type { ChatbotSettings } from './settings-schema.ts';

/**
 * Identifies the settings as sent. The platform has no read operation, so this fingerprint of the
 * last successful push is the only way to know whether a push would change anything.
 */
export function fingerprintSettings(settings: ChatbotSettings): string {
  return `v1:${createHash('sha256').update(canonicalJson(settings)).digest('hex')}`;
}
