import { answerBytes } from '../../../budget/index.ts';
import type { Limiter } from '../../../http/index.ts';
import { httpOnFirstUse, retryAfterOf } from '../../../http/index.ts';
import type { Logger } from '../../../logger.ts';
import { FeedError, safeUrl } from '../../feed-error.ts';
import type { SourceConfig } from '../../source-schema.ts';
import { withFeedRetries } from '../../transports/feed-http.ts';
import { feedAuthHeaders, secretsOf } from '../../transports/http-auth.ts';
import {
  describeHttpError,
  feedStatusError,
  isRateLimitedHttpError,
  retryAfterOfError,
} from '../../transports/http-errors.ts';
import { type BudgetGate, BudgetPause, RateLimitPause } from './budget-gate.ts';
import type { ProviderProfile } from './profiles.ts';
import { getToken, TokenError } from './reso-token.ts';

/** One OData page: `value` and the link to the next page, if any. */
export interface ODataPage {
  value: Record<string, unknown>[];
  nextLink?: string;
}

export interface ResoClient {
  getPage(url: string): Promise<ODataPage>;
}

/** Redirects are not followed: a token must not be sent to a host the feed did not name. */
const http = httpOnFirstUse({ followRedirect: false });

/**
 * GETs OData pages through got under the feed's rate ceiling, with the one retry policy. With OAuth2,
 * a 401 fetches a fresh token and tries once more. A 429 pauses the feed's limiter (the one retry policy).
 * Every attempt first passes the key's budget (`gate`), and every answer's rate headers go back to it;
 * a budget spent for longer than a run waits rejects with `BudgetPause`, before the request is sent.
 */
export function createResoClient(
  feedId: string,
  source: SourceConfig,
  limiter: Limiter,
  options: {
    signal?: AbortSignal;
    logger?: Logger;
    gate?: BudgetGate;
    headers?: Record<string, string>;
    /** What a 429 past the retries does (`ProviderProfile.rateLimited`); default: it fails the read. */
    rateLimited?: ProviderProfile['rateLimited'];
    now?: () => number;
  },
): ResoClient {
  const { signal, gate } = options;
  const auth = source.auth;
  /** Blanked in what the provider says back. */
  const secrets = secretsOf(source);
  /**
   * Every request to the provider, the token's too: counted in the key's budget first, then sent
   * under the feed's limiter; `heard` reads its answer back into the budget.
   */
  const send = async <T>(request: () => Promise<T>, heard?: (answer: T) => Promise<void>): Promise<T> => {
    const answered = await gate?.pass();
    try {
      const answer = await limiter.run(request, signal);
      await heard?.(answer);
      return answer;
    } finally {
      // Answered or failed: from now on the provider has surely received it, if ever.
      await answered?.();
    }
  };
  const bearer = async (refresh: boolean): Promise<Record<string, string>> => {
    if (auth?.type !== 'oauth2') return feedAuthHeaders(auth);
    const token = await getToken(auth, {
      refresh,
      timeoutMs: source.timeoutMs,
      send,
      ...(signal ? { signal } : {}),
    });
    return { authorization: `Bearer ${token}` };
  };

  const fetchOnce = async (
    url: string,
    refresh: boolean,
  ): Promise<{ status: number; body: string; retryAfterMs: number | undefined }> => {
    const headers = {
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate',
      ...options.headers,
      ...source.headers,
      ...(await bearer(refresh)),
    };
    const response = await send(
      () =>
        http().then((got) =>
          got(url, {
            headers,
            responseType: 'text',
            timeout: { request: source.timeoutMs },
            ...(signal ? { signal } : {}),
          }),
        ),
      async (answer) =>
        gate?.heard(
          answer.statusCode,
          answer.headers,
          retryAfterOf(answer.headers),
          answerBytes(answer.rawHeaders, answer.body),
        ),
    );
    const retryAfterMs = retryAfterOf(response.headers);
    return { status: response.statusCode, body: response.body, retryAfterMs };
  };

  const attempt = async (url: string): Promise<ODataPage> => {
    let answer = await fetchOnce(url, false);
    if (answer.status === 401 && auth?.type === 'oauth2') answer = await fetchOnce(url, true);
    if (answer.status < 200 || answer.status > 299)
      throw feedStatusError(answer.status, safeUrl(url), answer.retryAfterMs, answer.body, secrets);
    return parsePage(feedId, url, answer.body);
  };

  return {
    async getPage(url) {
      const context = {
        feedId,
        source,
        limiter,
        ...(signal ? { signal } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      };
      try {
        return await withFeedRetries(context, url, () => attempt(url), {
          retryMessage: 'RESO request retry',
          describe: (error) => (error instanceof TokenError ? error.message : describeHttpError(error)),
          ...(options.rateLimited ? { retryRateLimited: options.rateLimited.retry } : {}),
        });
      } catch (error) {
        // The budget said stop before a request was sent: not a failure of the feed.
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof BudgetPause) throw cause;
        // The provider refused for the key's rate past the retries: a pause, its words said.
        const limited = options.rateLimited;
        if (limited && isRateLimitedHttpError(cause)) {
          const waitMs = Math.max(limited.pauseMs, retryAfterOfError(cause) ?? 0);
          const said = describeHttpError(cause).replace(` from ${safeUrl(url)}`, '');
          const reason = `the provider refused for the key's rate (${said})${limited.note ? `; ${limited.note}` : ''}`;
          // Every run and process on the key holds back until then, not only this one's resume.
          await gate?.heard(429, {}, waitMs);
          throw new RateLimitPause((options.now ?? Date.now)() + waitMs, reason);
        }
        throw error;
      }
    },
  };
}

function parsePage(feedId: string, url: string, body: string): ODataPage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new FeedError('E_FEED_PARSE', feedId, `${safeUrl(url)} did not answer JSON`, { cause: error });
  }
  const page = parsed as { value?: unknown; '@odata.nextLink'?: unknown };
  if (!page || !Array.isArray(page.value)) {
    throw new FeedError('E_FEED_PARSE', feedId, `${safeUrl(url)} answered JSON without a "value" array`);
  }
  const next = page['@odata.nextLink'];
  return {
    value: page.value as Record<string, unknown>[],
    ...(typeof next === 'string' && next ? { nextLink: next } : {}),
  };
}
