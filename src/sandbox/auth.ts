import type { IncomingHttpHeaders } from 'node:http';

/** The keys the sandbox expects; undefined = not configured. */
export interface SandboxKeys {
  secretKey: string | undefined;
  sessionKey: string | undefined;
}

/**
 * Spec part 5 contradicts itself about which header each operation takes, so the sandbox accepts
 * either on every operation: `Authorization: <secret key>` (raw, no `Bearer`) or
 * `chatrobot-sessionkey: <session key>`. With no key configured every request passes (the demo runs
 * without credentials).
 */
export function isAuthorized(headers: IncomingHttpHeaders, keys: SandboxKeys): boolean {
  if (!keys.secretKey && !keys.sessionKey) return true;
  const secretOk = keys.secretKey !== undefined && headers.authorization === keys.secretKey;
  const sessionOk = keys.sessionKey !== undefined && headers['chatrobot-sessionkey'] === keys.sessionKey;
  return secretOk || sessionOk;
}

/** The Message of the 401 envelope. Never echoes what was sent. */
export const auth401Message = 'Unauthorized: send a valid Authorization or chatrobot-sessionkey header';
