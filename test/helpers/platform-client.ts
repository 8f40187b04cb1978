import { clientFromConfig, type PlatformClient, type PlatformOptions } from '../../src/api/index.ts';
import { type ApiConfig, apiConfigSchema } from '../../src/config/schema.ts';

/**
 * The platform client as users get it: an `api:` config section, validated and defaulted by the
 * config schema, handed to `clientFromConfig`. Tests add a short backoff so retries take
 * milliseconds, not seconds.
 */
export function platformClient(
  api: Partial<ApiConfig> & { baseUrl: string },
  options: PlatformOptions = {},
): PlatformClient {
  return clientFromConfig(
    { api: apiConfigSchema.parse(api) },
    { backoff: { baseMs: 5, maxMs: 50 }, ...options },
  );
}
