import type { Command } from 'commander';
import { stringify } from 'yaml';
import type { BudgetStore } from '../../budget/index.ts';
import type { Config, FeedConfig } from '../../config/index.ts';
import { DEFAULT_CONFIG_FILE, findFeed, loadConfig } from '../../config/index.ts';
import { collectFeed, type IngestResult, type Rejection } from '../../ingest/index.ts';
import { explainFacts, type Listing, type MappingConfig } from '../../normalize/index.ts';
import { int32s } from '../../number-column.ts';
import { type RecordStore, spillRecords } from '../../reconcile/index.ts';
import { rejectionLine } from '../../render/index.ts';
import { isFeedError } from '../../sources/index.ts';
import { createFileStateStore } from '../../state/index.ts';
import {
  CliExit,
  cliLogger,
  type GlobalOptions,
  print,
  withConfigOption,
  withExamples,
  withJsonOption,
} from '../context.ts';
import { jsonPieces, type StreamedArray, writePieces } from '../json-stream.ts';
import { explainMapping, problemTable } from './validate-explain.ts';

interface ValidateOptions extends GlobalOptions {
  feed?: string;
  feeds?: boolean;
  explain?: boolean;
}

/** Rejections shown per reason in the text report; `--json` has them all. */
const SHOWN_PER_REASON = 5;
/**
 * Repeated keys listed with their records (the first to repeat), text and `--json`; every repeated
 * record is counted (`stats.duplicates`).
 */
const DUPLICATE_KEYS_KEPT = 10_000;

type FeedReport =
  | {
      feedId: string;
      ok: true;
      result: IngestResult<unknown>;
      /** `--json`: the listings and the rejections, spilled as they were read, printed from there. */
      records?: RecordStore;
      rejected?: RecordStore<Rejection>;
    }
  | { feedId: string; ok: false; code: string; error: string };

/**
 * `feed-sync validate`: checks the config, offline and at once (every problem listed). Reading feeds
 * is asked for: `--feed ID` fetches and normalizes one, `--feeds` all of them.
 */
export function registerValidate(program: Command): void {
  const command = withExamples(program.command('validate'), [
    'feed-sync validate -c feed-sync.yaml',
    'feed-sync validate --feed acme --json',
  ])
    .description(
      'check the config (offline); with --feed ID or --feeds, also fetch and normalize feeds without touching the platform',
    )
    .option('--feed <id>', 'also read this feed: counts, rejections by reason, the mapping in use')
    .option('--feeds', 'also read every feed')
    .option(
      '--explain',
      'with --feed/--feeds: each listing field and the feed field (header, path) it comes from',
    );
  withJsonOption(withConfigOption(command)).action(async (options: ValidateOptions) => {
    const notes: string[] = [];
    const config = await loadForValidate(options, notes);
    const feeds = feedsToRead(config, options);
    const noteLines = notes.map(
      (n) =>
        `note: ${n} (validate calls no platform; plan, sync and the worker refuse to start without a key)`,
    );
    if (feeds.length === 0) {
      const ids = config.feeds.map((f) => f.id);
      const summary = {
        ok: true,
        file: options.config,
        feeds: ids,
        chatbots: config.chatbots.length,
        ...(notes.length > 0 ? { notes } : {}),
      };
      const hint = ids.length > 0 ? '; read a feed with --feed ID, or all with --feeds' : '';
      print(options, { config: summary }, () =>
        [
          `✓ ${options.config}: ${ids.length} feed${ids.length === 1 ? '' : 's'}${ids.length ? ` (${ids.join(', ')})` : ''}, ${config.chatbots.length} chatbot${config.chatbots.length === 1 ? '' : 's'}${hint}`,
          ...noteLines,
        ].join('\n'),
      );
      return;
    }
    const logger = cliLogger();
    // A RESO provider's requests count against its key's budget in the state file, as a sync's do.
    const budget = createFileStateStore(config.stateFile).budgets;
    const reports: FeedReport[] = [];
    try {
      for (const feed of feeds) reports.push(await validateFeed(feed, logger, options.json ?? false, budget));
      await budget?.flush?.();
      if (options.json) await printJson(reports, notes);
    } finally {
      for (const report of reports)
        if (report.ok) {
          report.records?.close();
          report.rejected?.close();
        }
    }
    if (!options.json) {
      const render = (r: FeedReport) => renderFeedReport(r, { explain: options.explain ?? false });
      process.stdout.write(`${[...reports.map(render), ...noteLines].join('\n')}\n`);
    }
    const failed = reports.filter((r) => !r.ok).length;
    const yielding = reports.filter(yieldsNothing);
    const noRecords = yielding.filter((r) => r.ok && r.result.stats.records === 0).map((r) => r.feedId);
    const empty = yielding.filter((r) => r.ok && r.result.stats.records > 0).map((r) => r.feedId);
    const paused = reports.filter((r) => r.ok && r.result.pause !== undefined).map((r) => r.feedId);
    // Every reason to fail, in one line: a feed that could not be read and one that yields nothing.
    const problems = [
      ...(failed > 0 ? [`${failed} of ${reports.length} feed(s) could not be read`] : []),
      // A spent budget read nothing (or part): not the mapping's fault (a tester read "fix the mapping").
      ...(paused.length > 0
        ? [
            `${paused.join(', ')}: paused, the provider's request budget is spent (see above): read again once it resumes`,
          ]
        : []),
      ...(noRecords.length > 0
        ? [`${noRecords.join(', ')}: the feed has no records (a sync of it fails and deletes nothing)`]
        : []),
      ...(empty.length > 0
        ? [
            `no valid listing in ${empty.join(', ')}: fix the mapping (see the problems ${options.json ? 'in the report' : 'above'})`,
          ]
        : []),
    ];
    if (problems.length > 0) throw new CliExit(problems.join('; '));
  });
}

/**
 * The config. Validate never calls the platform, so a missing platform key is a note (`notes`), not
 * a refusal: plan, sync and the worker still refuse to start without one. An invalid config with
 * `--json` is printed as JSON by `main`, for every command.
 */
function loadForValidate(options: ValidateOptions, notes: string[]): Promise<Config> {
  return loadConfig(options.config ?? DEFAULT_CONFIG_FILE, undefined, { keyNotes: notes });
}

function feedsToRead(config: Config, options: ValidateOptions): FeedConfig[] {
  if (options.feeds) {
    if (config.feeds.length === 0) throw new CliExit('the config has no feeds');
    return config.feeds;
  }
  if (!options.feed) return [];
  // The one lookup: an unknown id names the feeds there are, exit 2 as every command (it said 1).
  return [findFeed(config, options.feed)];
}

async function validateFeed(
  feed: FeedConfig,
  logger: ReturnType<typeof cliLogger>,
  json: boolean,
  budget: BudgetStore | undefined,
): Promise<FeedReport> {
  let records: RecordStore | undefined;
  let rejected: RecordStore<Rejection> | undefined;
  try {
    // Validation always reads the whole feed: no validators, no watermark. `--json` prints every
    // normalized listing: each is spilled to a temporary file as it is read and printed from there,
    // one at a time; the text report needs only their keys. Memory stays flat with the feed.
    const deps = { state: {}, forceFull: true, logger, ...(budget ? { budget } : {}) };
    // Listings without a price (the last record of each key): most of a feed so is a price column
    // the mapping missed.
    const noPrice = (listing: Listing) => listing.SalePrice === undefined && listing.RentPrice === undefined;
    if (!json) {
      // The text shows the first rejections of each field and reason; the rest are counted. Of each
      // listing it keeps whether it has a price.
      const result = await collectFeed(feed, deps, (listing) => (noPrice(listing) ? 1 : 0), {
        rejectionsPerLabel: SHOWN_PER_REASON,
        duplicateKeysKept: DUPLICATE_KEYS_KEPT,
      });
      return { feedId: feed.id, ok: true, result: withPriceHint(result, (flag) => flag === 1) };
    }
    records = spillRecords();
    rejected = spillRecords<Rejection>();
    const spill = rejected;
    const unpriced = int32s();
    const result = await collectFeed(
      feed,
      deps,
      (listing) => {
        const ref = (records as RecordStore).put(listing);
        if (noPrice(listing)) unpriced.set(ref, 1);
        return ref;
      },
      {
        rejectionsPerLabel: 0,
        spillRejection: (rejection) => spill.put(rejection),
        duplicateKeysKept: DUPLICATE_KEYS_KEPT,
      },
    );
    const hinted = withPriceHint(result, (ref) => unpriced.get(ref) === 1);
    return { feedId: feed.id, ok: true, result: hinted, records, rejected };
  } catch (error) {
    records?.close();
    rejected?.close();
    if (!isFeedError(error)) throw error;
    return { feedId: feed.id, ok: false, code: error.code, error: error.message };
  }
}

/**
 * A hint when most valid records have no price (neither SalePrice nor RentPrice): a price column the
 * mapping did not map (a header the inference did not know, a preset's field left out), which a sync
 * would write as listings a buyer asks "how much" about in vain. A few unpriced ones (price on
 * request) are no hint.
 */
export function withPriceHint<T>(result: IngestResult<T>, unpriced: (kept: T) => boolean): IngestResult<T> {
  let listings = 0;
  let without = 0;
  for (const kept of result.listings) {
    if (kept === undefined) continue;
    listings++;
    if (unpriced(kept)) without++;
  }
  if (listings < PRICE_HINT_MIN || without * 2 <= listings) return result;
  const hint = {
    code: 'no_price',
    message: `${without} of ${listings} listings have no price (neither SalePrice nor RentPrice; the last record of each key): the chatbot cannot say what they cost`,
    fix: 'map the price column (mapping.fields.SalePrice, or RentPrice for rentals; `--explain` shows what each field comes from); leave it so only if these homes are truly priced on request',
  };
  return { ...result, hints: [...(result.hints ?? []), hint] };
}

/** Fewer listings than this get no price hint: a feed of three is read at a glance. */
const PRICE_HINT_MIN = 10;

/**
 * `validate --json`: the reports with every listing, each read back from its feed's records and
 * printed on its own (json-stream.ts), so the document is never whole in memory.
 */
async function printJson(reports: readonly FeedReport[], notes: readonly string[]): Promise<void> {
  const arrays: StreamedArray[] = [];
  const feeds = reports.map((report) => {
    if (!report.ok) return report;
    const { records, rejected, result } = report;
    const refs = result.listings as number[];
    const listings: StreamedArray =
      records === undefined
        ? refs
        : (function* () {
            for (const ref of refs) yield records.get(ref);
          })();
    const rejections: StreamedArray =
      rejected === undefined
        ? result.rejections
        : (function* () {
            for (let ref = 0; ref < rejected.size; ref++) yield rejected.get(ref);
          })();
    // The other lists that grow with the feed are printed an element at a time too (not walked and
    // printed whole): a feed whose every record is rejected holds every key.
    arrays.push(listings, rejections, result.held, result.removals, result.duplicates);
    // A feed read whose every record was rejected is not ok (exit 1, as the text's ✗ says); the
    // result is still there to say why.
    const verdict = result.pause
      ? {
          ok: false,
          code: PAUSED,
          error: `paused: ${result.pause.reason}`,
          resumesAt: result.pause.resumesAt,
        }
      : yieldsNothing(report)
        ? { ok: false, code: NO_VALID_LISTING, error: noValidListing(result.stats) }
        : { ok: true };
    return { feedId: report.feedId, ...verdict, result: { ...result, listings, rejections } };
  });
  await writePieces(process.stdout, jsonPieces({ feeds, ...(notes.length > 0 ? { notes } : {}) }, arrays));
}

/** `validate --json`'s code for a feed whose provider's request budget is spent: read in part, or not at all. */
const PAUSED = 'E_PAUSED';

/** `validate --json`'s code for a feed read whose every record was rejected. */
const NO_VALID_LISTING = 'E_NO_VALID_LISTING';

function noValidListing(stats: IngestResult<unknown>['stats']): string {
  if (stats.records === 0) return 'the feed has no records (a sync of it fails and deletes nothing)';
  if (stats.removed === 0)
    return `no valid listing: all ${stats.records} record(s) rejected; fix the mapping (see the rejections)`;
  // Removals alone: a full feed's sync trips its empty-feed guard, deleting none of them.
  return `no valid listing: ${stats.rejected} of ${stats.records} record(s) rejected, ${stats.removed} to remove; a sync deletes nothing while the feed has no valid listing: fix the mapping (see the rejections)`;
}

/**
 * A feed read fine that gives a sync nothing to keep: no valid listing, and either nothing to remove
 * or a full feed, whose sync then trips its empty-feed guard (no valid listing, nothing deleted or
 * changed, exit 3). An incremental feed of removals alone is a normal day's delta.
 */
function yieldsNothing(report: FeedReport): boolean {
  if (!report.ok || report.result.pause !== undefined) return false;
  const { stats, mode } = report.result;
  return stats.valid === 0 && (stats.removed === 0 || mode === 'full');
}

export function renderFeedReport(report: FeedReport, options: { explain?: boolean } = {}): string {
  if (!report.ok) return `✗ ${report.feedId}: ${report.code} ${report.error}\n`;
  const { result } = report;
  const { stats } = result;
  const lines = [
    `${yieldsNothing(report) ? '✗' : '✓'} ${result.feedId}: ${stats.records} records: ${stats.valid} valid, ${stats.rejected} rejected, ${stats.removed} to remove, ${stats.duplicates} duplicate${stats.duplicates === 1 ? '' : 's'} (${result.mode})`,
  ];
  if (result.pause)
    lines.push(
      `  paused: ${result.pause.reason}; the provider was asked no more, so these counts are of the records read before it`,
    );
  for (const hint of result.hints ?? []) lines.push(`  hint: ${hint.message}`, `    fix: ${hint.fix}`);
  const as1252 = result.decodedAs1252 ?? [];
  if (as1252.length > 0) {
    const shown = as1252.slice(0, SHOWN_PER_REASON * 2).join(', ');
    const more =
      as1252.length > SHOWN_PER_REASON * 2 ? ` … and ${as1252.length - SHOWN_PER_REASON * 2} more` : '';
    lines.push(
      `  read as Windows-1252, not valid UTF-8 (${as1252.length}): row${as1252.length === 1 ? '' : 's'} ${shown}${more}`,
    );
  }
  const byLabel = groupByLabel(result.rejections);
  for (const { field, reason, count } of result.rejectionCounts) {
    const label = labelOf(field, reason);
    lines.push(`  ${label} (${count}):`);
    for (const rejection of (byLabel.get(label) ?? []).slice(0, SHOWN_PER_REASON))
      lines.push(`    ${rejectionLine(rejection)}`);
    if (count > SHOWN_PER_REASON)
      lines.push(`    … and ${count - SHOWN_PER_REASON} more (--json lists them all)`);
  }
  for (const duplicate of result.duplicates.slice(0, SHOWN_PER_REASON)) {
    const where = duplicate.refs.map((ref) =>
      ref.row !== undefined ? `row ${ref.row}` : `record ${ref.index + 1}`,
    );
    // The first rows and the last: a key on 150k rows is one line.
    if (duplicate.omitted) where.splice(where.length - 1, 0, `… ${duplicate.omitted} more …`);
    lines.push(`  duplicate key ${duplicate.key}: ${where.join(', ')} (the last is kept)`);
  }
  const moreKeys = result.duplicates.length - SHOWN_PER_REASON;
  if (result.duplicatesUnlisted)
    lines.push(
      `  … and more duplicate keys (${result.stats.duplicates} repeated records in all); --json lists the first ${result.duplicates.length}`,
    );
  else if (moreKeys > 0) lines.push(`  … and ${moreKeys} more duplicate keys (--json lists them all)`);
  const markers = Object.entries(result.unknownMarkers ?? {});
  if (markers.length > 0) {
    const counts = markers.map(([field, count]) => `${field} ${count}`).join(', ');
    lines.push(`  unknown marker 0 (the feed does not say), listings per field: ${counts}`);
  }
  if (result.droppedImages) {
    const { count, examples } = result.droppedImages;
    const shown = examples
      .slice(0, 3)
      .map(
        ({ ref, url }) =>
          `${ref.row !== undefined ? `row ${ref.row}` : `record ${ref.index + 1}`} ${JSON.stringify(url)}`,
      );
    lines.push(
      `  ${count} image URL(s) dropped, not absolute http(s) (mapping.baseUrl resolves relative ones): ${shown.join(', ')}`,
    );
  }
  if (options.explain) {
    lines.push('  listing fields and where they come from:', ...explainMapping(result.mapping));
    const facts = explainFacts(result.mapping as MappingConfig | undefined);
    if (facts.length > 0) lines.push('  ExtensionColumn facts and where they come from:', ...facts);
  }
  // A preset's rules are hundreds of lines (REAXML's ~350) that bury the summary: named, and written
  // out with --explain; an inferred or hand mapping in full, to copy into a config.
  const preset = (result.mapping as MappingConfig | undefined)?.preset;
  if (preset !== undefined && preset !== 'mls-csv' && !options.explain) {
    lines.push(
      `  mapping in use: the ${preset} preset with this feed's own rules over it (--explain writes it out; --json has it)`,
    );
  } else {
    lines.push('  mapping in use:');
    // Written out in full, to copy into a config: no anchors and aliases for the rules presets share.
    lines.push(
      indent(stringify({ mapping: result.mapping }, { aliasDuplicateObjects: false }).trimEnd(), '    '),
    );
  }
  lines.push(...problemTable(result.problemCounts));
  return `${lines.join('\n')}\n`;
}

/** `Bedrooms not_a_number`, or the reason alone for a rejection of the whole record. */
function labelOf(field: string | undefined, reason: string): string {
  return field ? `${field} ${reason}` : reason;
}

/** The rejections kept, by label, in feed order. */
function groupByLabel(rejections: readonly Rejection[]): Map<string, Rejection[]> {
  const groups = new Map<string, Rejection[]>();
  for (const rejection of rejections) {
    const label = labelOf(rejection.field, rejection.reason);
    const group = groups.get(label);
    if (group) group.push(rejection);
    else groups.set(label, [rejection]);
  }
  return groups;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}
