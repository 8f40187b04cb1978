import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { isLoopbackHost } from '../config/index.ts';

export interface Credentials {
  user: string;
  password: string;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** HTTP basic auth against one user; 401 with a challenge otherwise. */
export function basicAuth(credentials: Credentials) {
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const [scheme, encoded] = header.split(' ');
    if (scheme?.toLowerCase() === 'basic' && encoded) {
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      // Both compared every time, so the timing does not tell which one was wrong.
      const userOk = same(decoded.slice(0, Math.max(colon, 0)), credentials.user);
      const passwordOk = same(decoded.slice(colon + 1), credentials.password);
      if (colon >= 0 && userOk && passwordOk) {
        next();
        return;
      }
    }
    res
      .set('WWW-Authenticate', 'Basic realm="feed-sync", charset="UTF-8"')
      .status(401)
      .send('authentication required');
  };
}

/** Parsed, never matched by prefix: see `isLoopbackHost`. */
export const isLoopback = (host: string) => isLoopbackHost(host);
