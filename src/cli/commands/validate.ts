import type { Command } from 'commander';
import { stringify } from 'yaml';
import type { FeedConfig } from '../../config/schema.ts';
import { type IngestResult, ingestFeed, isFeedError, type Rejection } from '../../sources/index.ts';
import {
  CliExit,
  cliLogger,
  type GlobalOptions,
  loadCliConfig,
  withConfigOption,
  withJsonOption,
} from '../context.ts';

interface ValidateOptions extends GlobalOptions {
  feed?: string;
}

/** Rejections shown per reason in the text report; `--json` has them all. */
const SHOWN_PER_REASON = 5;

type FeedReport =
  | { feedId: string; ok: true; result: IngestResult }
  | { feedId: string; ok: false; code: string; error: string };

export function registerValidate(program: Command): void {
  const command = program
    .command('validate')
    .description(
      'fetch and normalize feeds without touching the platform: counts, rejections by reason, the mapping in use',
    )
    .option('--feed <id>', 'only this feed');
  withJsonOption(withConfigOption(command)).action(async (options: ValidateOptions) => {
    const config = await loadCliConfig(options);
    const feeds = options.feed ? config.feeds.filter((f) => f.id === options.feed) : config.feeds;
    if (feeds.length === 0)
      throw new CliExit(options.feed ? `no feed "${options.feed}" in the config` : 'the config has no feeds');
    const logger = cliLogger();
    const reports: FeedReport[] = [];
    for (const feed of feeds) reports.push(await validateFeed(feed, logger));
    if (options.json) process.stdout.write(`${JSON.stringify({ feeds: reports }, null, 2)}\n`);
    else process.stdout.write(`${reports.map(renderFeedReport).join('\n')}\n`);
    const failed = reports.filter((r) => !r.ok).length;
    if (failed > 0) throw new CliExit(`${failed} of ${reports.length} feed(s) could not be read`);
  });
}

async function validateFeed(feed: FeedConfig, logger: ReturnType<typeof cliLogger>): Promise<FeedReport> {
  try {
    // Validation always reads the whole feed: no validators, no watermark.
    const result = await ingestFeed(feed, { state: {}, forceFull: true, logger });
    return { feedId: feed.id, ok: true, result };
  } catch (error) {
    if (!isFeedError(error)) throw error;
    return { feedId: feed.id, ok: false, code: error.code, error: error.message };
  }
}

export function renderFeedReport(report: FeedReport): string {
  if (!report.ok) return `✗ ${report.feedId}: ${report.code} ${report.error}\n`;
  const { result } = report;
  const { stats } = result;
  const lines = [
    `✓ ${result.feedId}: ${stats.records} records: ${stats.valid} valid, ${stats.rejected} rejected, ${stats.removed} to remove, ${stats.duplicates} duplicate${stats.duplicates === 1 ? '' : 's'} (${result.mode})`,
  ];
  const byReason = groupByReason(result.rejections);
  for (const [reason, rejections] of byReason) {
    lines.push(`  ${reason} (${rejections.length}):`);
    for (const rejection of rejections.slice(0, SHOWN_PER_REASON)) lines.push(`    ${rejection.message}`);
    if (rejections.length > SHOWN_PER_REASON)
      lines.push(`    … and ${rejections.length - SHOWN_PER_REASON} more`);
  }
  for (const duplicate of result.duplicates.slice(0, SHOWN_PER_REASON)) {
    const where = duplicate.refs.map((ref) =>
      ref.row !== undefined ? `row ${ref.row}` : `record ${ref.index + 1}`,
    );
    lines.push(`  duplicate key ${duplicate.key}: ${where.join(', ')} (the last is kept)`);
  }
  lines.push('  mapping in use:');
  lines.push(indent(stringify({ mapping: result.mapping }).trimEnd(), '    '));
  return `${lines.join('\n')}\n`;
}

function groupByReason(rejections: readonly Rejection[]): Map<string, Rejection[]> {
  const groups = new Map<string, Rejection[]>();
  for (const rejection of rejections) {
    const label = rejection.field ? `${rejection.field} ${rejection.reason}` : rejection.reason;
    const group = groups.get(label);
    if (group) group.push(rejection);
    else groups.set(label, [rejection]);
  }
  return new Map([...groups].sort((a, b) => b[1].length - a[1].length));
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}
