import { FeedSyncError } from '../../../errors.ts';
import { httpOnFirstUse } from '../../../http/index.ts';
import { safeUrl } from '../../feed-error.ts';
import type { AuthConfig } from '../../source-schema.ts';
import { errorReasonOf } from '../../transports/http-errors.ts';

type OAuth2 = Extract<AuthConfig, { type: 'oauth2' }>;

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** The token endpoint's HTTP instance: the client secret must not follow a redirect. */
const http = httpOnFirstUse({ followRedirect: false });

/** Tokens by token URL and client, shared by the runs of one process. */
const cache = new Map<string, CachedToken>();

/** Refresh a little before the server's expiry, so a token never dies mid-request. */
const SKEW_MS = 60_000;

export class TokenError extends FeedSyncError {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message, {
      kind: 'FEED_FETCH',
      code: 'E_FEED_TOKEN',
      retryable: status === undefined || status === 429 || status >= 500,
    });
    this.status = status;
  }
}

/**
 * A bearer token for OAuth2 client credentials: cached until it expires, fetched again when
 * `refresh`. A token request that goes out is sent through `send` (the RESO client's: the key's
 * request budget, which counts it like any request to the provider, then the feed's limiter).
 */
export async function getToken(
  auth: OAuth2,
  options: {
    refresh?: boolean;
    timeoutMs: number;
    signal?: AbortSignal;
    now?: () => number;
    send?: <T>(request: () => Promise<T>) => Promise<T>;
  },
): Promise<string> {
  const key = `${auth.tokenUrl}\n${auth.clientId}`;
  const now = options.now ?? Date.now;
  const cached = cache.get(key);
  if (cached && !options.refresh && cached.expiresAt > now()) return cached.token;
  const form: Record<string, string> = {
    grant_type: 'client_credentials',
    client_id: auth.clientId,
    client_secret: auth.clientSecret,
  };
  if (auth.scope) form.scope = auth.scope;
  const post = () =>
    http().then((got) =>
      got.post(auth.tokenUrl, {
        form,
        timeout: { request: options.timeoutMs },
        responseType: 'text',
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    );
  const response = await (options.send ? options.send(post) : post());
  if (response.statusCode !== 200)
    throw new TokenError(
      tokenRefusal(response.statusCode, auth.tokenUrl, response.body, auth.clientSecret),
      response.statusCode,
    );
  let body: { access_token?: unknown; expires_in?: unknown };
  try {
    body = JSON.parse(response.body) as typeof body;
  } catch {
    throw new TokenError('token response is not JSON');
  }
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new TokenError('token response has no access_token');
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in ?? 3600);
  cache.set(key, { token: body.access_token, expiresAt: now() + Math.max(0, expiresIn * 1000 - SKEW_MS) });
  return body.access_token;
}

/** `token request to auth.example/token answered HTTP 400: the server said "invalid_client: …"`. */
function tokenRefusal(status: number, tokenUrl: string, body: unknown, secret: string): string {
  const reason = typeof body === 'string' ? errorReasonOf(body, [secret]) : undefined;
  return `token request to ${safeUrl(tokenUrl)} answered HTTP ${status}${reason ? `: the server said "${reason}"` : ''}`;
}

/** Forget every cached token (tests). */
export function clearTokenCache(): void {
  cache.clear();
}
