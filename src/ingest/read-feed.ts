import { nearestKey } from '../nearest.ts';
import {
  acceptListing,
  type CompiledMapping,
  compileMapping,
  type FieldProblem,
  factPaths,
  inferCsvMapping,
  inferredMappingHints,
  type Listing,
  type ListingField,
  type MappedRecord,
  type MappingHint,
  mergeMappings,
  noteOf,
  noteRowsHint,
  presetRejectionHint,
  type RawFields,
  validateListing,
  withPresetHooks,
} from '../normalize/index.ts';
import type { IngestDeps, OpenedFeed, RawRecord } from '../sources/index.ts';
import { FeedError, isFeedError, openFeed } from '../sources/index.ts';
import type { FeedState } from '../state/index.ts';
import {
  fingerprintCheck,
  fingerprintOf,
  type MemoEntry,
  type RecordMemo,
  seedOf,
  unknownFieldsOf,
  unknownMaskOf,
} from './record-memo.ts';
import type {
  BrokenRow,
  FeedItem,
  IngestSpec,
  KnownItem,
  RecordProblem,
  RecordRef,
  Rejection,
} from './types.ts';

/** What reading a feed to its end gives besides its items: the mapping used and the source state. */
export interface FeedReadEnd {
  /** The mapping in use (undefined when the feed had no record); a CSV header decides an inferred one. */
  mapping: CompiledMapping | undefined;
  /** The source state to remember after a successful run: the opened feed's, run through `nextState`. */
  state: Partial<FeedState>;
  /** Said once about the mapping as a whole (a CSV header with no listing-URL column). */
  hints: MappingHint[];
}

/**
 * Every record of a feed as a listing, a removal or a rejection, in feed order. Yields nothing when
 * the feed has not changed (304). Throws FeedError when the feed cannot be fetched or parsed.
 */
export async function* readFeed(feed: IngestSpec, deps: IngestDeps): AsyncGenerator<FeedItem, FeedReadEnd> {
  const batches = itemsOf(feed, await (deps.open ?? openFeed)(feed, deps), deps);
  let next: IteratorResult<FeedItem[], FeedReadEnd> | undefined;
  try {
    for (next = await batches.next(); !next.done; next = await batches.next()) yield* next.value;
    return next.value;
  } finally {
    // A consumer that stops early closes the feed's source, down to the file or connection.
    if (!next?.done) await batches.return(undefined as never);
  }
}

/**
 * The one loop that normalizes: each raw record of an opened feed to an item, the mapping decided by
 * the first record (a CSV header), a batch of items per batch of records. Returns, as a value, the
 * mapping used and the source state after the last record (a reducer over the records: nothing is
 * patched in place).
 */
export function itemsOf(
  feed: IngestSpec,
  opened: OpenedFeed,
  deps: IngestDeps,
): AsyncGenerator<FeedItem[], FeedReadEnd>;
export function itemsOf(
  feed: IngestSpec,
  opened: OpenedFeed,
  deps: IngestDeps,
  memo: MemoReading | undefined,
): AsyncGenerator<(FeedItem | KnownItem)[], FeedReadEnd>;
export async function* itemsOf(
  feed: IngestSpec,
  opened: OpenedFeed,
  deps: IngestDeps,
  memo?: MemoReading,
): AsyncGenerator<(FeedItem | KnownItem)[], FeedReadEnd> {
  let mapping: CompiledMapping | undefined;
  /** The memo's seed for this run, once the mapping is known; NaN while no memo is kept. */
  let seed = Number.NaN;
  let known: RecordMemo | undefined;
  /** Records looked up in the memo, and found: a memo that knows few (every record changed) is let go. */
  let lookups = 0;
  let hits = 0;
  let hints: MappingHint[] = [];
  const notes: { where: string; text: string }[] = [];
  let state = opened.state;
  const { nextState, name } = opened;
  try {
    for await (const records of opened.records) {
      deps.signal?.throwIfAborted();
      const items: (FeedItem | KnownItem)[] = [];
      for (const record of records) {
        if (!mapping) {
          // The run's clock, read once here at the edge: for `daysSince` rules, and the memo's seed.
          const now = deps.now?.() ?? new Date();
          mapping = mappingFor(feed, record, deps, now);
          hints = mappingHints(feed, record, mapping, opened.columns?.());
          if (memo) {
            seed = memoSeed(memo.salt, mapping, now);
            known = memo.open(mapping, seed, now);
          }
        }
        if (nextState) state = nextState(state, record);
        // A row cut short to one cell (`Total: 26 listings` under a 14-column header) may be a note
        // too; any other broken row is a record, rejected.
        const note =
          record.problem && record.problem.shape !== 'cut' ? undefined : noteRow(feed, mapping, record);
        if (note !== undefined) {
          notes.push({ where: `row ${record.row} of ${name}`, text: note });
          continue;
        }
        // A record the memo may know: not broken, not marked deleted (both outside its fields).
        const fp =
          memo && !record.problem && !record.removed ? fingerprintOf(record.fields, seed) : Number.NaN;
        const check = Number.isNaN(fp) ? 0 : fingerprintCheck();
        if (known !== undefined && !Number.isNaN(fp)) {
          const entry = known.get(fp, check);
          lookups++;
          if (entry !== undefined) {
            hits++;
            const ref = knownRef(feed, record, entry);
            const item: KnownItem = {
              kind: 'known',
              entry,
              fields: record.fields,
              values: record.values,
              names: record.names,
              fp,
              check,
              ref,
            };
            if (entry.unknown !== 0) item.unknown = unknownFieldsOf(entry.unknown);
            items.push(item);
            continue;
          }
          // Let go: no longer asked, and its bytes free for the rest of the run.
          if (lookups === LOOKUPS_TRIED && hits < LOOKUPS_TRIED * MIN_HIT_SHARE) {
            known.release();
            known = undefined;
          }
        }
        const item = record.problem
          ? problemItem(feed, name, mapping, record, record.problem)
          : toItem(feed, name, mapping, record);
        // Memoized with what the report counts of it: the fields it lacked. Not one that dropped an
        // image or a fact (the report keeps examples of those, and a hint for the fact).
        if (!Number.isNaN(fp) && item.kind === 'listing' && !item.droppedImages && !item.droppedFacts) {
          const unknownMask = unknownMaskOf(item.unknown);
          if (unknownMask !== -1) {
            item.fp = fp;
            item.check = check;
            item.unknownMask = unknownMask;
          }
        }
        if (item.kind === 'rejected') hints = withRejectionHints(hints, feed, item.rejection);
        else if (item.kind === 'listing' && item.droppedFacts)
          hints = withFactHints(hints, feed, name, item.ref, item.droppedFacts);
        items.push(item);
      }
      if (items.length > 0) yield items;
    }
  } catch (error) {
    throw readFailure(feed, error);
  } finally {
    // Every record looked up (or the read stopped): the memo's bytes go before the feed is indexed.
    known?.release();
  }
  const noteHint = noteRowsHint(notes);
  return { mapping, state, hints: noteHint ? [...hints, noteHint] : hints };
}

/** What a run that keeps a record memo hands `itemsOf` (see `record-memo.ts`). */
export interface MemoReading {
  /** What the feed's listings depend on besides the mapping, the clock and the records. */
  salt: readonly string[];
  /**
   * The mapping the first record decided, the run's seed and clock: the memo the last run left for
   * this seed, if any is to be used (read then: a feed that has not changed reads none).
   */
  open(mapping: CompiledMapping, seed: number, now: Date): RecordMemo | undefined;
}

/** Lookups after which a memo that knows less than `MIN_HIT_SHARE` of them is let go (~40 MB at 1M). */
const LOOKUPS_TRIED = 10_000;
const MIN_HIT_SHARE = 0.1;

/**
 * The seed of this run's fingerprints: the caller's salt, the mapping compiled (a CSV header can
 * decide it), and the day when a `daysSince` rule reads the clock (days are counted in whole UTC
 * days, so a listing's days on market change only at midnight UTC).
 */
function memoSeed(salt: readonly string[], mapping: CompiledMapping, now: Date): number {
  return memoSeedOf(salt, JSON.stringify(mapping.mapping), now);
}

/** `memoSeed` of a mapping's rules as JSON (`IngestResult.mapping`): a feed reading's seed is checked with it. */
export function memoSeedOf(salt: readonly string[], rules: string, now: Date): number {
  const day = rules.includes('"daysSince"') ? String(Math.floor(now.getTime() / 86_400_000)) : '';
  return seedOf([...salt, rules, day]);
}

function knownRef(feed: IngestSpec, record: RawRecord, entry: MemoEntry): RecordRef {
  const ref: RecordRef = { feedId: feed.id, index: record.index, key: entry.key };
  if (record.row !== undefined) ref.row = record.row;
  return ref;
}

/**
 * A record's listing as `toItem` makes it, for a record the memo knew and a write now needs: the
 * same mapping of the same fields. Undefined if it is not a valid listing (it was, last run).
 */
export function listingOfFields(mapping: CompiledMapping, fields: RawFields): Listing | undefined {
  const mapped = mapping.map(fields);
  const listing = acceptListing(mapped);
  if (listing !== undefined) return listing;
  const result = validateListing(mapping.map(fields, true));
  return result.ok ? result.listing : undefined;
}

/**
 * A CSV row that is a note, not a record (one text cell, every other empty; no key, or a row cut
 * short to that one cell): its text, else
 * undefined. Skipped and said once (`note_rows`), never a rejection: a disclaimer line an exporter
 * writes under its header would otherwise make every run partial.
 */
function noteRow(feed: IngestSpec, mapping: CompiledMapping, record: RawRecord): string | undefined {
  if (feed.source.format !== 'csv' || record.row === undefined) return undefined;
  // The header again (two exports joined into one file): no listing, whatever its key column says.
  if (repeatsHeader(record)) return 'the header line again';
  const text = noteOf(record.fields);
  if (text === undefined) return undefined;
  // A row cut short to one cell of words is a line of text under the table (`Total: 3 listings`),
  // wherever the cell falls, the key's column included: no listing is one cell long.
  if (record.problem?.shape === 'cut') return text;
  const key = mapping.map(record.fields).listing[feed.key];
  return typeof key === 'string' && key !== '' ? undefined : text;
}

/** A row whose every cell is its column's name (trimmed): the header repeated, at least two columns. */
function repeatsHeader(record: RawRecord): boolean {
  const { values, names } = record;
  if (values === undefined || names === undefined || names.length < 2) return false;
  for (let i = 0; i < names.length; i++) if (values[i]?.trim() !== names[i]) return false;
  return true;
}

/** The hints a rejection's problems call for (a preset's record without its URL…), each said once. */
function withRejectionHints(hints: MappingHint[], feed: IngestSpec, rejection: Rejection): MappingHint[] {
  let out = hints;
  for (const problem of rejection.problems ?? [rejection]) {
    const hint = presetRejectionHint(feed.id, feed.mapping, problem);
    if (hint && !out.some((h) => h.code === hint.code)) out = [...out, hint];
  }
  return out;
}

/**
 * A fact left out because a value of it could not be read (`preise.warmmiete "2.210"` where the
 * mapping does not say `decimalComma`): said once per fact, with the first record as the example.
 * The listing itself is not held (compile-mapping.ts): only the fact is not sent.
 */
function withFactHints(
  hints: MappingHint[],
  feed: IngestSpec,
  name: string,
  ref: RecordRef,
  dropped: NonNullable<Extract<FeedItem, { kind: 'listing' }>['droppedFacts']>,
): MappingHint[] {
  let out = hints;
  for (const fact of dropped) {
    if (out.some((h) => h.code === 'fact_left_out' && h.message.startsWith(`the fact "${fact.key}" `)))
      continue;
    const where = ref.row !== undefined ? `Row ${ref.row} of ${name}` : `Record ${ref.index + 1} of ${name}`;
    const key = ref.key === undefined ? '' : ` (${feed.key} ${ref.key})`;
    out = [
      ...out,
      {
        field: 'ExtensionColumn',
        code: 'fact_left_out',
        message: `the fact "${fact.key}" is left out of the listings whose value it cannot read (the listings are synced without it), e.g. ${where}${key}: ${fact.message}`,
        fix: `say how feed ${feed.id} writes decimals: \`mapping: { ${feed.mapping.preset ? `preset: ${feed.mapping.preset}, ` : ''}decimalComma: true }\` (a dot groups thousands: 2.210 is 2210) or \`decimalComma: false\` (a dot is a decimal point)`,
      },
    ];
  }
  return out;
}

/** A failure while reading records, as the FeedError the run fails with. */
function readFailure(feed: IngestSpec, error: unknown): Error {
  if (isFeedError(error) || (error as Error).name === 'AbortError') return error as Error;
  return new FeedError('E_FEED_PARSE', feed.id, `reading the feed failed: ${(error as Error).message}`, {
    cause: error,
  });
}

/**
 * The configured mapping. A CSV feed with neither preset nor fields, or with `preset: mls-csv`, gets
 * one inferred from its header, with the feed's own fields merged over it.
 */
export function mappingFor(
  feed: IngestSpec,
  first: RawRecord | undefined,
  deps: IngestDeps,
  now: Date = deps.now?.() ?? new Date(),
): CompiledMapping {
  const { mapping } = feed;
  // The run's clock, read at the edge, for `daysSince` rules.
  const options = { now };
  if (infersFromHeader(feed) && first) {
    return compileMapping(mergeMappings(inferCsvMapping(Object.keys(first.fields)), mapping), options);
  }
  // One base URL for relative media: the source's, else the mapping's (`mapping.baseUrl`).
  return withPresetHooks(compileMapping(mapping, options), mapping, {
    mediaBaseUrl: feed.source.mediaBaseUrl ?? mapping.baseUrl,
  });
}

/** A CSV feed with neither preset nor fields, or with `preset: mls-csv`: its header decides the mapping. */
function infersFromHeader(feed: IngestSpec): boolean {
  const { mapping } = feed;
  const hasRules = mapping.preset !== undefined || Object.keys(mapping.fields ?? {}).length > 0;
  return feed.source.format === 'csv' && (mapping.preset === 'mls-csv' || !hasRules);
}

/**
 * What to say once about the mapping the first record decided: an inferred one's missing URL
 * column, and a CSV column the feed's own mapping names that its header does not have.
 */
function mappingHints(
  feed: IngestSpec,
  first: RawRecord,
  mapping: CompiledMapping,
  columns: readonly string[] | undefined,
): MappingHint[] {
  const headers = Object.keys(first.fields);
  const missing = columns ? missingColumnHints(feed, columns, mapping) : [];
  if (!infersFromHeader(feed)) return missing;
  return [...inferredMappingHints(feed.id, headers, mapping.mapping), ...missing];
}

/**
 * A field of the feed's own mapping none of whose columns the CSV header has (`BuildingArea: Sq Ft`
 * over a header with `SqFt`): every row leaves it unset, which passes for a feed without the value
 * (the unknown marker 0, no images) and said nothing. The header is known before the first row.
 */
function missingColumnHints(
  feed: IngestSpec,
  headers: readonly string[],
  mapping: CompiledMapping,
): MappingHint[] {
  const has = (written: string) => {
    const path = written.normalize('NFC');
    return headers.includes(path) || headers.includes(path.split('.')[0]!);
  };
  const hints: MappingHint[] = [];
  for (const field of Object.keys(feed.mapping.fields ?? {}) as ListingField[]) {
    const paths = [...new Set(mapping.fieldPaths[field] ?? [])].filter((p) => !p.startsWith('$'));
    if (paths.length === 0 || paths.some(has)) continue;
    const named = paths.map((p) => `"${p}"`).join(', ');
    const near = paths.map((p) => nearestColumn(p, headers)).find((h) => h !== undefined);
    const rule = feed.mapping.fields?.[field];
    const fallback =
      feed.mapping.defaults?.[field] !== undefined ||
      (Array.isArray(rule) ? rule : [rule]).some(
        (r) => typeof r === 'object' && r !== null && 'default' in r,
      );
    hints.push({
      field,
      code: 'unknown_column',
      message: `mapping.fields.${field} reads ${named}, which the CSV header does not have: every row ${fallback ? `takes ${field}'s default` : `leaves ${field} unset`}`,
      fix: near
        ? `did you mean "${near}"? Map ${field} in feed ${feed.id} to a column of the header`
        : `map ${field} in feed ${feed.id} to a column of the header: ${headers
            .slice(0, 12)
            .map((h) => `"${h}"`)
            .join(', ')}${headers.length > 12 ? ', …' : ''}`,
    });
  }
  // A fact whose columns the header lacks is on no listing: said the same way.
  for (const [key, rule] of Object.entries(feed.mapping.extensions?.fields ?? {})) {
    if (rule === null || rule === undefined) continue;
    const paths = [...new Set(typeof rule === 'string' ? [rule] : factPaths(rule))].filter(
      (p) => !p.startsWith('$'),
    );
    if (paths.length === 0 || paths.some(has)) continue;
    const near = paths.map((p) => nearestColumn(p, headers)).find((h) => h !== undefined);
    hints.push({
      code: 'unknown_column',
      message: `mapping.extensions.fields.${key} reads ${paths.map((p) => `"${p}"`).join(', ')}, which the CSV header does not have: no listing gets the fact ${key}`,
      fix: near
        ? `did you mean "${near}"? Map the fact ${key} in feed ${feed.id} to a column of the header`
        : `map the fact ${key} in feed ${feed.id} to a column of the header`,
    });
  }
  return hints;
}

/** The header nearest a column name a mapping gives: by spelling, else the one header that starts with its first word. */
function nearestColumn(name: string, headers: readonly string[]): string | undefined {
  const near = nearestKey(name, headers);
  if (near !== undefined) return near;
  const word = /^[\p{L}\p{N}]+/u.exec(name)?.[0]?.toLowerCase();
  if (!word || word.length < 3) return undefined;
  const stem = word.endsWith('s') ? word.slice(0, -1) : word;
  const starting = headers.filter((h) => h.toLowerCase().startsWith(stem));
  return starting.length === 1 ? starting[0] : undefined;
}

/**
 * A record its format already says is broken (a BLM row with the wrong field count): rejected by
 * row, with its key when the fields it still has give one, so that its listing is held.
 */
function problemItem(
  feed: IngestSpec,
  name: string,
  mapping: CompiledMapping,
  record: RawRecord,
  problem: NonNullable<RawRecord['problem']>,
): FeedItem {
  const ref: RecordRef = { feedId: feed.id, index: record.index };
  if (record.row !== undefined) ref.row = record.row;
  const key = mapping.map(record.fields).listing[feed.key];
  const agreed = problem.alternate ? mapping.map(problem.alternate).listing[feed.key] === key : true;
  // A key only one reading of a broken row gives may be another column's value: it holds nothing.
  if (typeof key === 'string' && key !== '' && agreed) ref.key = ownCopy(key);
  const where =
    record.row !== undefined ? `Row ${record.row} of ${name}` : `Record ${record.index + 1} of ${name}`;
  const place =
    record.row !== undefined ? `row ${record.row} of ${name}` : `record ${record.index + 1} of ${name}`;
  const broken: BrokenRow = {
    index: record.index,
    where: `the ${problem.shape ?? 'broken'} ${place}`,
    cells: cellsOf(record.fields, problem),
  };
  if (record.row !== undefined) broken.row = record.row;
  return {
    kind: 'rejected',
    rejection: { ...ref, reason: problem.reason, message: `${where}: ${problem.message}` },
    broken,
  };
}

/** The distinct non-empty values of a broken record, trimmed, from both of its readings. */
function cellsOf(fields: RawRecord['fields'], problem: NonNullable<RawRecord['problem']>): string[] {
  const cells = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string') {
      const text = value.trim();
      if (text !== '') cells.add(ownCopy(text));
    } else if (typeof value === 'number') cells.add(String(value));
  };
  for (const value of Object.values(fields)) add(value);
  if (problem.alternate) for (const value of Object.values(problem.alternate)) add(value);
  for (const value of problem.values ?? []) add(value);
  return [...cells];
}

function toItem(feed: IngestSpec, name: string, mapping: CompiledMapping, record: RawRecord): FeedItem {
  const mapped = mapping.map(record.fields);
  const keyValue = mapped.listing[feed.key];
  const key = typeof keyValue === 'string' && keyValue !== '' ? ownCopy(keyValue) : undefined;
  // The listing holds the same copy: the run keeps keys long after their records.
  if (key !== undefined) mapped.listing[feed.key] = key;
  const ref: RecordRef = { feedId: feed.id, index: record.index };
  if (record.row !== undefined) ref.row = record.row;
  if (key !== undefined) ref.key = key;
  // Built only for a record that is not a listing: most are, and this runs for every record.
  // A RESO record by its ListingKey: its place in a provider's answer moves from run to run (a tester).
  const where = () => {
    if (record.row !== undefined) return `Row ${record.row} of ${name}`;
    const listingKey = record.fields.ListingKey;
    return typeof listingKey === 'string' && listingKey.trim() !== ''
      ? `Record ListingKey ${listingKey.trim()} of ${name}`
      : `Record ${record.index + 1} of ${name}`;
  };
  if (mapped.remove || record.removed) {
    if (key !== undefined) return { kind: 'remove', key, ref };
    const text = record.removed
      ? `the feed marks the record deleted but ${feed.key} is missing`
      : `the status says "remove" but ${feed.key} is missing`;
    const problems = [{ field: feed.key, reason: 'missing', message: `${feed.key} is missing (${text})` }];
    const rejection = {
      ...ref,
      field: feed.key,
      reason: 'missing',
      message: `${where()}: ${text}`,
      problems,
    };
    return { kind: 'rejected', rejection, keyless: keylessRow(record, where(), feed.key) };
  }
  const listing = acceptListing(mapped);
  if (listing !== undefined) return listingItem(listing, ref, mapped);
  // Rejected (or left to zod): map again keeping the raw values, to say which value and why.
  const explained = mapping.map(record.fields, true);
  const result = validateListing(explained);
  if (result.ok) return listingItem(result.listing, ref, explained);
  const label = key !== undefined && record.row === undefined ? `${where()} (${feed.key} ${key})` : where();
  // A record without its key is first of all that: its key's problem leads (the report's Field,
  // the dashboard's), whatever the order of the fields (a REAXML record without uniqueID read "Url
  // missing … also MLSNumber missing").
  const problems = keyFirst(result.problems.map(recordProblem), feed.key);
  const first = problems[0]!;
  return {
    kind: 'rejected',
    rejection: { ...ref, ...first, message: `${label}: ${first.message}`, problems },
    ...(key === undefined ? { keyless: keylessRow(record, where(), feed.key) } : {}),
  };
}

/** The longest cell of a keyless record read for the keys it names (`keylessRow`). */
const KEYLESS_CELL_CHARS = 300;

/**
 * A record without its key, as the rows that hold listings are kept (`FeedItem.keyless`): the keys
 * it names, matched exactly (`BrokenRow.exact`): a URL's or path's last segment (`…/l/TC-1007`,
 * with and without its extension), and a cell that is an id of letters and digits (`A-1001`). Never
 * a number alone, nor a word of a text: a draft row's beds, year or street (`12 Main St`) name no
 * listing (a reviewer: keys 2, 3 and 12 were held by one draft row).
 */
function keylessRow(record: RawRecord, where: string, keyField: string): BrokenRow {
  const cells = new Set<string>();
  for (const value of Object.values(record.fields)) {
    if (typeof value !== 'string') continue;
    const text = value.trim();
    if (text === '' || text.length > KEYLESS_CELL_CHARS) continue;
    if (text.includes('/')) {
      const last =
        text
          .replace(/[?#].*$/, '')
          .replace(/\/+$/, '')
          .split('/')
          .at(-1) ?? '';
      if (last !== '' && !/\s/.test(last)) {
        cells.add(ownCopy(last));
        // `TC-1007.html` names TC-1007; a photo's `1.jpg` names no listing 1.
        const bare = last.replace(/\.[a-z]{2,5}$/i, '');
        if (bare !== last && bare !== '' && !/^\d+$/.test(bare)) cells.add(ownCopy(bare));
      }
    } else if (!/\s/.test(text) && text.length <= 40 && /\p{L}/u.test(text) && /\d/.test(text))
      cells.add(ownCopy(text));
  }
  const row: BrokenRow = {
    index: record.index,
    where: `${where.charAt(0).toLowerCase()}${where.slice(1)}, which has no ${keyField}`,
    cells: [...cells],
    exact: true,
  };
  if (record.row !== undefined) row.row = record.row;
  return row;
}

/**
 * A key as a string of its own. V8 keeps a substring of 13 or more characters as a view on the
 * text it was cut from, and the CSV reader cuts values from the chunks it reads: one long key kept
 * for the whole run would keep its whole chunk (32 KiB from a file) alive. A copy keeps only itself.
 */
function ownCopy(key: string): string {
  return key.length < 13 ? key : ` ${key}`.slice(1);
}

function listingItem(listing: Listing, ref: RecordRef, mapped: MappedRecord): FeedItem {
  const item: FeedItem = { kind: 'listing', listing, ref };
  if (mapped.unknown !== undefined) item.unknown = mapped.unknown;
  if (mapped.droppedImages !== undefined) item.droppedImages = mapped.droppedImages;
  if (mapped.droppedFacts !== undefined) item.droppedFacts = mapped.droppedFacts;
  return item;
}

/** The key's problems first, the others in their order. */
function keyFirst(problems: RecordProblem[], key: string): RecordProblem[] {
  const index = problems.findIndex((p) => p.field === key);
  return index <= 0
    ? problems
    : [problems[index]!, ...problems.slice(0, index), ...problems.slice(index + 1)];
}

/** A problem as a rejection carries it: no `value` key when the feed sent none. */
function recordProblem(problem: FieldProblem): RecordProblem {
  const { field, value, reason, message } = problem;
  return value === undefined ? { field, reason, message } : { field, value, reason, message };
}
