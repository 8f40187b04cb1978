import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CallEvent } from '../api/index.ts';
import type { RunReport } from '../reconcile/index.ts';

export interface Metrics {
  registry: Registry;
  recordRun(report: RunReport): void;
  recordCall(event: CallEvent): void;
  /** Job counts by state, read from the queue at scrape time. */
  watchQueue(queue: Queue): void;
}

/** The worker's Prometheus metrics, on a registry of its own (no global state between tests). */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const runs = new Counter({
    name: 'feed_sync_runs_total',
    help: 'Sync runs by feed and outcome',
    labelNames: ['feed', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'feed_sync_run_duration_seconds',
    help: 'Duration of sync runs',
    labelNames: ['feed'],
    buckets: [1, 5, 15, 60, 300, 900, 3600],
    registers: [registry],
  });
  const phases = new Histogram({
    name: 'feed_sync_run_phase_seconds',
    help: "Where sync runs' time went: reading the feed, the pages left after it, the plan, the writes",
    labelNames: ['feed', 'phase'],
    buckets: [0.1, 1, 5, 15, 60, 300, 900, 3600],
    registers: [registry],
  });
  const listings = new Counter({
    name: 'feed_sync_listings_total',
    help: 'Listings created, updated, deleted, rejected and held, by feed',
    labelNames: ['feed', 'change'],
    registers: [registry],
  });
  const calls = new Counter({
    name: 'feed_sync_api_calls_total',
    help: 'Platform API call attempts by operation',
    labelNames: ['operation'],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'feed_sync_api_errors_total',
    help: 'Failed platform API call attempts by operation and error code',
    labelNames: ['operation', 'code'],
    registers: [registry],
  });
  const queues: Queue[] = [];
  new Gauge({
    name: 'feed_sync_jobs',
    help: 'Jobs in the queue by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const queue of queues) {
        const counts = await queue.getJobCounts(
          'waiting',
          'active',
          'delayed',
          'completed',
          'failed',
          'prioritized',
        );
        for (const [state, count] of Object.entries(counts)) this.inc({ state }, count);
      }
    },
  });

  return {
    registry,
    recordRun(report) {
      runs.inc({ feed: report.feedId, outcome: report.outcome });
      duration.observe({ feed: report.feedId }, report.durationMs / 1000);
      // A dry run writes nothing: its phases would say writes took no time.
      if (report.phases && !report.dryRun) {
        const { feedMs, pagesMs, planMs, writesMs } = report.phases;
        const spent = { feed: feedMs, pages: pagesMs, plan: planMs, writes: writesMs };
        for (const [phase, ms] of Object.entries(spent))
          phases.observe({ feed: report.feedId, phase }, ms / 1000);
      }
      for (const change of ['created', 'updated', 'deleted', 'rejected', 'held'] as const) {
        if (report[change] > 0) listings.inc({ feed: report.feedId, change }, report[change]);
      }
    },
    recordCall(event) {
      calls.inc({ operation: event.operation });
      if (event.outcome !== 'ok') errors.inc({ operation: event.operation, code: event.outcome });
    },
    watchQueue(queue) {
      queues.push(queue);
    },
  };
}
