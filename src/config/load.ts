import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { FeedSyncError } from '../errors.ts';
import { nearestKey } from '../nearest.ts';
import { fieldsForColumn } from '../normalize/index.ts';
import { SOURCE_FORMATS } from '../sources/index.ts';
import {
  bareReferenceIn,
  coerceReferences,
  type InterpolationIssue,
  interpolate,
  revertUnfixed,
  variableOf,
  wholeReferences,
} from './interpolate.ts';
import { knownKeysAt } from './known-keys.ts';
import { type Config, configSchema, missingPlatformKey } from './schema.ts';

/**
 * One problem of a config file: where (line and column, 1-based, when the file has the place), the
 * key path, what is wrong, and the hint (the nearest valid key).
 */
export interface ConfigProblem {
  /** `feeds[0].source.url`; absent for a problem of the whole file (bad syntax, not found). */
  path?: string;
  /** `unknown key`, `required`, `Invalid URL`… */
  message: string;
  /** `did you mean maxDeleteShare?` */
  hint?: string;
  line?: number;
  column?: number;
}

/** `feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?` (no place). */
export function problemText(problem: ConfigProblem): string {
  const what = problem.hint ? `${problem.message}; ${problem.hint}` : problem.message;
  return problem.path ? `${problem.path}: ${what}` : what;
}

/** `feed-sync.yaml:12:5: feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?` */
export function locatedText(source: string, problem: ConfigProblem): string {
  const at = problem.line !== undefined ? `:${problem.line}:${problem.column ?? 1}` : '';
  return `${source}${at}: ${problemText(problem)}`;
}

/**
 * Bad configuration: every problem names its file, line and column (when the file has them) and its
 * key path. Never retried.
 */
export class ConfigError extends FeedSyncError {
  readonly problems: ConfigProblem[];
  /** One line per problem, `file:line:column: path: message; hint`. */
  readonly issues: string[];
  /** The file (or `config`) the issues are in. */
  readonly source: string;
  constructor(source: string, problems: readonly (string | ConfigProblem)[]) {
    const list = problems.map((p) => (typeof p === 'string' ? { message: p } : p));
    const issues = list.map((p) => locatedText(source, p));
    super(issues.join('; '), { kind: 'CONFIG_INVALID', code: 'E_CONFIG' });
    this.problems = list;
    this.issues = issues;
    this.source = source;
  }
}

/** `feeds[0].source.url` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path)
    out += typeof part === 'number' ? `[${part}]` : out ? `.${String(part)}` : String(part);
  return out || '(root)';
}

/** Keys renamed in a release: the old name gets the new one suggested (`chatbots[].serialNumber`). */
const RENAMED: Readonly<Record<string, string>> = { serialNumber: 'chatbot' };

/** Where a key path is in the file: line and column, 1-based. */
type Locate = (
  path: readonly PropertyKey[],
  at: 'key' | 'value',
) => { line: number; column: number } | undefined;

/**
 * One problem per issue, each naming its key path and its place in the file. An unknown key is one
 * problem per key, placed at the key, with the nearest valid key when one is close
 * (`feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?`). A required key left out
 * reads `required`, placed at the object that lacks it; left out because it was misspelt, it is not
 * repeated. In file order.
 */
function describe(
  issues: readonly (z.core.$ZodIssue | InterpolationIssue)[],
  locate: Locate,
  valueAtPath: (path: readonly PropertyKey[]) => unknown = () => undefined,
  variableAt: (path: readonly PropertyKey[]) => string | undefined = () => undefined,
): ConfigProblem[] {
  type Found = ConfigProblem & { missing: boolean };
  const suggested = new Set<string>();
  const found = issues.flatMap((issue): Found[] => {
    if (!('code' in issue) || issue.code !== 'unrecognized_keys') {
      // zod says "Invalid input: expected string, received undefined" for a key left out.
      // A value of a few left out (`source.format`) is "expected one of …" to zod: required, too.
      const absentChoice =
        'code' in issue && issue.code === 'invalid_value' && (valueAtPath(issue.path) ?? null) === null;
      const missing =
        absentChoice ||
        ('code' in issue && issue.code === 'invalid_type' && / received undefined$/.test(issue.message));
      const message = absentChoice
        ? `required: one of ${issue.values.map((v) => JSON.stringify(v)).join('|')}`
        : missing
          ? 'required'
          : issue.message;
      // A value that came from the environment names its variable (never its value: it may be a key).
      const variable = missing || !('code' in issue) ? undefined : variableAt(issue.path);
      const hint =
        [
          valueHint(issue, valueAtPath(issue.path)),
          variable && `the value of \${${variable}} in the environment`,
        ]
          .filter(Boolean)
          .join('; ') || undefined;
      return [
        {
          path: formatPath(issue.path),
          message,
          ...(hint ? { hint } : {}),
          missing,
          ...locate(issue.path, 'value'),
        },
      ];
    }
    const known = knownKeysAt(configSchema, issue.path);
    return issue.keys.map((key) => {
      const renamed = RENAMED[key];
      const near =
        nearestKey(key, known) ??
        (renamed && known.includes(renamed) ? renamed : undefined) ??
        listingFieldFor(issue.path, key, known) ??
        nestedKeyFor(issue.path, key, known, valueAtPath([...issue.path, 'format']));
      if (near) suggested.add(formatPath([...issue.path, near]));
      const path = [...issue.path, key];
      return {
        path: formatPath(path),
        message: 'unknown key',
        ...(near ? { hint: `did you mean ${near}?` } : {}),
        missing: false,
        ...locate(path, 'key'),
      };
    });
  });
  return found
    .filter((problem) => !(problem.missing && suggested.has(problem.path ?? '')))
    .map(({ missing: _missing, ...problem }) => problem)
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0));
}

/**
 * A key written one level too high (`source.recordPath` for `source.xml.recordPath`): the object
 * beside it that takes it, as `xml.recordPath`. Only a case-exact name, only when one object does,
 * and never another format's block (`recordPath` on a CSV source is no XML option to move).
 */
function nestedKeyFor(
  path: readonly PropertyKey[],
  key: string,
  known: readonly string[],
  format: unknown,
): string | undefined {
  const otherFormat = (child: string) =>
    typeof format === 'string' && child !== format && (SOURCE_FORMATS as readonly string[]).includes(child);
  const holders = known.filter(
    (child) => !otherFormat(child) && knownKeysAt(configSchema, [...path, child]).includes(key),
  );
  return holders.length === 1 ? `${holders[0]}.${key}` : undefined;
}

/**
 * A key of the mapping named as feeds name their columns where a listing field is meant
 * (`fields.Area`, `defaults.Beds`, `missing.Sqft`): the field a CSV header of that name fills, when
 * one does and the object takes it.
 */
function listingFieldFor(
  path: readonly PropertyKey[],
  key: string,
  known: readonly string[],
): string | undefined {
  if (!path.includes('mapping')) return undefined;
  return fieldsForColumn(key).find((field) => known.includes(field));
}

/** `did you mean markSold?` for a value one of a few is meant (`markSOLD`, `Delete`). */
function valueHint(issue: z.core.$ZodIssue | InterpolationIssue, value: unknown): string | undefined {
  if (!('code' in issue) || issue.code !== 'invalid_value' || typeof value !== 'string') return undefined;
  const options = issue.values.filter((v): v is string => typeof v === 'string');
  const near = nearestKey(value, options);
  return near && near !== value ? `did you mean ${near}?` : undefined;
}

/** The value at a key path of the config as parsed, if there is one. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = root;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/**
 * The place of a key path in a parsed document. A path that is there: its key (`at: 'key'`, or
 * when the value is a collection or empty), else its value. A path that is not (a required key left
 * out): the deepest part that is, so the problem points at the object that lacks the key.
 */
function locatorOf(doc: Document, lines: LineCounter): Locate {
  const place = (offset: number | undefined) => {
    if (offset === undefined) return undefined;
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  return (path, at) => {
    let node: unknown = doc.contents;
    let key: unknown;
    let whole = true;
    for (const part of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(part),
        );
        if (!pair) {
          whole = false;
          break;
        }
        key = pair.key;
        node = pair.value;
      } else if (isSeq(node) && typeof part === 'number' && node.items[part] !== undefined) {
        key = undefined;
        node = node.items[part];
      } else {
        whole = false;
        break;
      }
    }
    const rangeOf = (n: unknown) =>
      n && typeof n === 'object' && 'range' in n ? (n.range as number[] | undefined)?.[0] : undefined;
    const keyAt = rangeOf(key);
    if (whole && at === 'value' && isScalar(node)) return place(rangeOf(node) ?? keyAt);
    if (!whole && (isMap(node) || isSeq(node))) return place(rangeOf(node) ?? keyAt);
    return place(keyAt ?? rangeOf(node));
  };
}

/** Whether `path` is at or below `prefix`: a schema issue under an unset variable's key repeats it. */
function isWithin(path: readonly PropertyKey[], prefix: readonly PropertyKey[]): boolean {
  return prefix.every((part, i) => path[i] === part);
}

export interface ParseOptions {
  /** Names the file in error messages. */
  source?: string;
  /** Base for relative `source.path` entries. Default: the current directory. */
  baseDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * For a command that never calls the platform (`validate`): a missing platform key (neither key
   * set, or its environment variable unset) is not an error but a note pushed here.
   */
  keyNotes?: string[];
}

const KEYS = ['secretKey', 'sessionKey'];

/** Unset variables of the platform keys become notes, and the keys unset (the schema sees none). */
function keysAsNotes(interpolated: unknown, issues: InterpolationIssue[], notes: string[]): void {
  const api = (interpolated as { api?: Record<string, unknown> } | undefined)?.api;
  for (let i = issues.length - 1; i >= 0; i--) {
    const { path, message } = issues[i]!;
    if (path.length !== 2 || path[0] !== 'api' || !KEYS.includes(String(path[1]))) continue;
    issues.splice(i, 1);
    if (api) delete api[String(path[1])];
    notes.unshift(`api.${String(path[1])}: ${message}`);
  }
}

/**
 * A config is checked once a run: zod's compiled fast path for an object schema (a `new Function`
 * built on its first parse) costs more than it saves there (~8 ms of a CLI run's start).
 */
const ONCE = { jitless: true } as const;

/**
 * Parse and validate a config text (YAML or JSON, YAML being a superset: one parser, so both get
 * line and column). Pure.
 */
export function parseConfig(text: string, options: ParseOptions = {}): Config {
  const source = options.source ?? 'config';
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const first = lines.linePos(doc.errors[0]!.pos[0]);
    // `{ afterDays: ${GD:-0} }`: YAML reads the reference's braces as a map of its own, and every
    // token after it is an error. One problem, and what to write instead.
    const bare = bareReferenceIn(text.split('\n')[first.line - 1] ?? '');
    if (bare) {
      const { reference, column } = bare;
      throw new ConfigError(source, [
        {
          message: `not valid YAML: ${reference} inside { } or [ ] must be quoted ("${reference}"): unquoted, YAML reads its braces as a map`,
          line: first.line,
          column,
        },
      ]);
    }
    throw new ConfigError(
      source,
      doc.errors.map((error) => {
        const { line, col } = lines.linePos(error.pos[0]);
        return { message: `not valid YAML or JSON: ${error.message.split('\n')[0]}`, line, column: col };
      }),
    );
  }
  const raw: unknown = doc.toJS() ?? {};
  const issues: InterpolationIssue[] = [];
  const interpolated = interpolate(raw, options.env ?? {}, issues);
  // A command that never calls the platform reads a config whose key variable is unset: a note.
  const notesBefore = options.keyNotes?.length ?? 0;
  if (options.keyNotes) keysAsNotes(interpolated, issues, options.keyNotes);
  // Every problem at once: unset variables and schema issues together, so one edit fixes them all.
  let result = configSchema.safeParse(interpolated, ONCE);
  // `${PAGE_SIZE:-100}` where a number goes: the environment's "100" read as the number it is.
  const coerced = result.success
    ? []
    : coerceReferences(interpolated, wholeReferences(raw), result.error.issues);
  if (coerced.length > 0) {
    result = configSchema.safeParse(interpolated, ONCE);
    if (!result.success && revertUnfixed(coerced, result.error.issues) > 0)
      result = configSchema.safeParse(interpolated, ONCE);
  }
  const schemaIssues = result.success
    ? []
    : result.error.issues.filter((issue) => !issues.some((unset) => isWithin(issue.path, unset.path)));
  const api = (interpolated as { api?: Record<string, unknown> }).api ?? {};
  const apiFine = ![...issues, ...schemaIssues].some((issue) => issue.path[0] === 'api');
  const noKey = apiFine ? missingPlatformKey(api) : undefined;
  if (noKey && options.keyNotes) {
    // An unset key variable said already is the same problem.
    if (options.keyNotes.length === notesBefore) options.keyNotes.push(`api: ${noKey}`);
  } else if (noKey) issues.push({ path: ['api'], message: noKey });
  if (issues.length > 0 || !result.success)
    throw new ConfigError(
      source,
      describe(
        [...issues, ...schemaIssues],
        locatorOf(doc, lines),
        (path) => valueAt(interpolated, path),
        (path) => variableOf(valueAt(raw, path), options.env ?? {}),
      ),
    );
  return resolvePaths(result.data, options.baseDir);
}

function resolvePaths(config: Config, baseDir: string | undefined): Config {
  if (!baseDir) return config;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  return {
    ...config,
    stateFile: abs(config.stateFile),
    feeds: config.feeds.map((feed) =>
      feed.source.path ? { ...feed, source: { ...feed.source, path: abs(feed.source.path) } } : feed,
    ),
  };
}

/** Read, interpolate and validate the config file. The only place that reads `process.env` for config. */
export async function loadConfig(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  options: Pick<ParseOptions, 'keyNotes'> = {},
): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(file, [code === 'ENOENT' ? 'file not found' : `cannot read (${code})`]);
  }
  return parseConfig(text, { source: file, baseDir: dirname(resolve(file)), env, ...options });
}
