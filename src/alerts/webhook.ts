import { classifyRequestError, HttpStatusError, httpOnFirstUse, isRequestError } from '../http/index.ts';
import type { Logger } from '../logger.ts';
import { failedCountOf, type RunReport } from '../reconcile/index.ts';
import type { IncidentStore } from './incident-store.ts';
import { type Incident, incidentsOf } from './incidents.ts';

export interface AlerterOptions {
  webhookUrl: string;
  /** Alert when more than this share of a feed's records were rejected. */
  rejectedShare: number;
  /** Where open incidents are kept: the worker's store (Redis or Postgres). */
  incidents: IncidentStore;
  logger: Logger;
  /** Per-post timeout, ms. Default 10 s. */
  timeoutMs?: number;
}

export interface Alerter {
  onReport(report: RunReport): Promise<void>;
  /** A job that failed for good (no report: it threw). */
  onJobFailed(info: { name: string; data: unknown; error: Error }): Promise<void>;
}

/** Webhook hosts (Slack and the like) may redirect; the URL itself is the only secret. */
const http = httpOnFirstUse({ followRedirect: true });

/**
 * Posts a JSON summary (with a Slack-compatible `text`) to the webhook once per incident: the
 * incident is recorded in the worker's store when it opens, so retries, later runs and other workers stay
 * quiet until a run shows it is over.
 */
export function createAlerter(options: AlerterOptions): Alerter {
  async function open(incident: Incident, details: Record<string, unknown>): Promise<void> {
    const isNew = await options.incidents.open(`${incident.feedId}:${incident.kind}`);
    if (!isNew) return;
    const body = { text: incident.text, feedId: incident.feedId, kind: incident.kind, ...details };
    try {
      // No retry here: a failed post is retried at the next occurrence.
      const response = await (await http()).post(options.webhookUrl, {
        json: body,
        timeout: { request: options.timeoutMs ?? 10_000 },
      });
      if (response.statusCode < 200 || response.statusCode > 299)
        throw new HttpStatusError(response.statusCode, `webhook answered HTTP ${response.statusCode}`, {
          kind: 'SERVICE_UNAVAILABLE',
          code: 'E_WEBHOOK_HTTP',
        });
      options.logger.info({ feed: incident.feedId, kind: incident.kind }, 'alert sent');
    } catch (error) {
      // Not sent: forget the incident so the next occurrence tries again.
      await options.incidents.close([`${incident.feedId}:${incident.kind}`]);
      options.logger.warn(
        { feed: incident.feedId, kind: incident.kind, reason: describePostError(error) },
        'alert webhook failed',
      );
    }
  }

  return {
    async onReport(report) {
      const { open: incidents, resolved } = incidentsOf(report, options.rejectedShare);
      await options.incidents.close(resolved.map((kind) => `${report.feedId}:${kind}`));
      const summary = {
        outcome: report.outcome,
        reason: report.reason,
        counts: {
          created: report.created,
          updated: report.updated,
          deleted: report.deleted,
          rejected: report.rejected,
          failed: failedCountOf(report),
        },
        guards: report.guards,
      };
      for (const incident of incidents) await open(incident, summary);
    },
    async onJobFailed({ name, data, error }) {
      const feedId = (data as { feedId?: unknown }).feedId;
      if (name !== 'sync-feed' || typeof feedId !== 'string') return;
      await open(
        { feedId, kind: 'failed', text: `feed-sync: run of feed ${feedId} failed: ${error.message}` },
        { outcome: 'failed', reason: error.message },
      );
    },
  };
}

/**
 * Why a post failed, without the URL: the webhook URL carries its token (Slack, Teams…), and an
 * HTTP library's messages may name it. The status, or the network error's code, never a message.
 */
export function describePostError(error: unknown): string {
  if (error instanceof HttpStatusError) return `HTTP ${error.status}`;
  if (isRequestError(error)) return classifyRequestError(error).code;
  return error instanceof Error ? error.name : 'unknown error';
}
