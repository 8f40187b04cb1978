import { createMemoryBudget } from '../../../budget/index.ts';
import { createLocalLimiter } from '../../../http/index.ts';
import { parseTimestamp } from '../../../normalize/index.ts';
import { resoOptionsSchema } from '../../source-schema.ts';
import type { FeedSpec, IngestDeps, OpenedFeed } from '../../source-types.ts';
import { BudgetPause, createBudgetGate } from './budget-gate.ts';
import { budgetKeyOf } from './budget-key.ts';
import { startReplication } from './checkpoint.ts';
import { createResoClient } from './reso-client.ts';
import { queryHeaders } from './reso-query.ts';
import { ResoReplication } from './reso-replication.ts';
import { resolveResoOptions } from './resolve-options.ts';

/**
 * Budgets of the process, for callers that hand none (a `validate`, a test): with the worker and the
 * CLI the state store's budgets count every request (src/budget).
 */
const processBudget = createMemoryBudget();

/**
 * A RESO Web API feed under its provider's rules (profiles.ts): a replication (the whole feed, or
 * what changed since the watermark) read page by page, its place kept after every page in the
 * feed's state, every request counted against the provider key's budget first. The first page is
 * read now, so an unreachable endpoint fails before any record; a budget already spent is no failure
 * (the run ends `paused`).
 */
export async function openResoApi(feed: FeedSpec, deps: IngestDeps, name: string): Promise<OpenedFeed> {
  const { source } = feed;
  const options = resolveResoOptions(source.reso ?? resoOptionsSchema.parse({}));
  const clock = deps.now ?? (() => new Date());
  const { checkpoint, resumed } = startReplication(
    options,
    deps.state,
    clock(),
    deps.forceFull ?? false,
    parseTimestamp,
  );
  const gate = createBudgetGate({
    budget: deps.budget ?? processBudget,
    key: budgetKeyOf(source),
    limits: options.limits,
    now: deps.budgetClock ?? (() => new Date()),
    signal: deps.signal,
  });
  const limiter = createLocalLimiter({ concurrency: 1, requestsPerSecond: options.limits.perSecond });
  const client = createResoClient(feed.id, source, limiter, {
    gate,
    headers: queryHeaders(options),
    rateLimited: options.profile.rateLimited,
    now: () => (deps.budgetClock ?? (() => new Date()))().getTime(),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  const replication = new ResoReplication({
    feed,
    endpoint: source.url!,
    options,
    client,
    checkpoint,
    resumed,
    state: deps.state,
    now: clock,
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  await replication.open();
  return {
    notModified: false,
    mode: replication.openingMode(),
    name,
    records: replication.records(),
    state: {},
    end: () => replication.end(),
    stillListed: (keys) => replication.stillListed(keys),
  };
}

export { BudgetPause };
