import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { FeedSyncError } from '../errors.ts';
import { type InterpolationIssue, interpolate } from './interpolate.ts';
import { knownKeysAt, nearestKey } from './known-keys.ts';
import { type Config, configSchema } from './schema.ts';

/** Bad configuration: every issue names its key path. Never retried. */
export class ConfigError extends FeedSyncError {
  readonly issues: string[];
  /** The file (or `config`) the issues are in. */
  readonly source: string;
  constructor(source: string, issues: string[]) {
    super(`${source}: ${issues.join('; ')}`, { kind: 'CONFIG_INVALID', code: 'E_CONFIG' });
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

/**
 * One line per problem, each naming its key path. An unknown key is one line per key, with the
 * nearest valid key when one is close (`feeds[0].maxDeleteShar: unknown key; did you mean maxDeleteShare?`).
 * A required key left out reads `required`; left out because it was misspelt, it is not repeated.
 */
function describe(issues: readonly (z.core.$ZodIssue | InterpolationIssue)[]): string[] {
  type Line = { path: string; message: string; missing: boolean };
  const suggested = new Set<string>();
  const lines = issues.flatMap((issue): Line[] => {
    if (!('code' in issue) || issue.code !== 'unrecognized_keys') {
      // zod says "Invalid input: expected string, received undefined" for a key left out.
      const missing =
        'code' in issue && issue.code === 'invalid_type' && / received undefined$/.test(issue.message);
      return [{ path: formatPath(issue.path), message: missing ? 'required' : issue.message, missing }];
    }
    const known = knownKeysAt(configSchema, issue.path);
    return issue.keys.map((key) => {
      const renamed = RENAMED[key];
      const near = nearestKey(key, known) ?? (renamed && known.includes(renamed) ? renamed : undefined);
      if (near) suggested.add(formatPath([...issue.path, near]));
      const message = `unknown key${near ? `; did you mean ${near}?` : ''}`;
      return { path: formatPath([...issue.path, key]), message, missing: false };
    });
  });
  return lines
    .filter((line) => !(line.missing && suggested.has(line.path)))
    .map((line) => `${line.path}: ${line.message}`);
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
}

/** Parse and validate a config text (YAML or JSON, YAML being a superset). Pure but for nothing. */
export function parseConfig(text: string, options: ParseOptions = {}): Config {
  const source = options.source ?? 'config';
  let raw: unknown;
  try {
    raw = parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigError(source, [`not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`]);
  }
  const issues: InterpolationIssue[] = [];
  const interpolated = interpolate(raw, options.env ?? {}, issues);
  // Every problem at once: unset variables and schema issues together, so one edit fixes them all.
  const result = configSchema.safeParse(interpolated);
  const schemaIssues = result.success
    ? []
    : result.error.issues.filter((issue) => !issues.some((unset) => isWithin(issue.path, unset.path)));
  if (issues.length > 0 || !result.success)
    throw new ConfigError(source, describe([...issues, ...schemaIssues]));
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
export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(file, [code === 'ENOENT' ? 'file not found' : `cannot read (${code})`]);
  }
  return parseConfig(text, { source: file, baseDir: dirname(resolve(file)), env });
}
