import type { z } from 'zod';
import { generated } from './literal-access.ts';
import { isCanonical } from './media-url.ts';

/** What a compiled check returns for a value the schema rejects (or that it cannot judge alone). */
export const INVALID: unique symbol = Symbol('invalid');

/** The value as the schema outputs it, or INVALID. */
type Check = (value: unknown) => unknown;

/** The parts of zod's internal definitions the compiler reads (`schema._zod.def`, stable in zod 4). */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  format?: string;
  protocol?: RegExp;
  hostname?: RegExp;
  normalize?: boolean;
  entries?: Record<string, string | number>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}
interface CheckDef {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  format?: string;
  fn?: (value: unknown) => unknown;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * Compile a zod object schema into a plain function with the same verdict on valid records, for the
 * hot path of ingestion: `undefined` means "not valid, or not sure", and the caller then runs zod
 * itself, which stays the one source of truth for verdicts and messages. The output is built like
 * zod's (keys in schema order, unknown keys dropped). Any construct the compiler does not know is
 * checked by its own zod schema, so the compiled check is never more lenient than the schema.
 */
export function compileObjectCheck(
  schema: z.ZodObject,
  options: { reuse?: boolean } = {},
): (input: Readonly<Record<string, unknown>>) => Record<string, unknown> | undefined {
  const fields = Object.entries(defOf(schema).shape ?? {}).map(([key, field]) => {
    const def = defOf(field);
    const optional = def.type === 'optional';
    return { key, optional, check: compileCheck(optional ? def.innerType! : field) };
  });
  // Objects built key by key past ~18 keys fall into V8's dictionary mode (7× the memory of a compact
  // object, for every listing kept in a run). Records of one feed mostly set the same fields: each
  // set of fields gets a template with those keys, and an output starts as a copy of it.
  const templates = new Map<number, Readonly<Record<string, undefined>>>();
  const templateOf = (mask: number) => {
    let template = templates.get(mask);
    if (template === undefined) {
      template = Object.fromEntries(fields.filter((_, i) => mask & (1 << i)).map((f) => [f.key, undefined]));
      if (templates.size < 256) templates.set(mask, template);
    }
    return template;
  };
  // A mask holds 32 fields; a larger schema copies its dictionary into a compact object instead.
  const compact = fields.length <= 32;
  const body = straightLineCheck(fields, compact, options.reuse ?? false);
  type ObjectCheck = (input: Readonly<Record<string, unknown>>) => Record<string, unknown> | undefined;
  const build = generated<
    (
      checks: Check[],
      invalid: typeof INVALID,
      template: typeof templateOf,
      count: typeof countKeys,
    ) => ObjectCheck
  >(['checks', 'INVALID', 'templateOf', 'countKeys'], body, () => () => (input) => {
    // Without code generation: zod itself, the one judge anyway.
    const result = schema.safeParse(input);
    return result.success ? (result.data as Record<string, unknown>) : undefined;
  });
  return build(
    fields.map((f) => f.check),
    INVALID,
    templateOf,
    countKeys,
  );
}

/**
 * The object check as straight-line code, one statement per field with the key as a literal: each
 * property access is then its own inline cache, where one loop over the keys makes every access site
 * see every key (megamorphic, several times slower on the hot path). Keys are schema keys (code, not
 * feed data), written as JSON string literals all the same.
 */
function straightLineCheck(
  fields: readonly { key: string; optional: boolean }[],
  compact: boolean,
  reuse: boolean,
): string {
  const lines: string[] = ['return function check(input) {', 'let mask = 0, present = 0, same = true, c;'];
  fields.forEach(({ key, optional }, i) => {
    const literal = JSON.stringify(key);
    lines.push(
      `let v${i} = input[${literal}];`,
      optional ? `if (v${i} !== undefined) {` : `if (v${i} === undefined) return undefined; {`,
      `c = checks[${i}](v${i}); if (c === INVALID) return undefined;`,
      `if (c !== v${i}) { same = false; v${i} = c; }`,
      compact ? `mask |= ${1 << i}; present++; }` : 'present++; }',
    );
  });
  // An element already exactly as zod would output it (`{Key, value}` entries) is kept, not copied.
  if (reuse)
    lines.push(
      'if (same && Object.getPrototypeOf(input) === Object.prototype && countKeys(input) === present) return input;',
    );
  lines.push(compact ? 'const out = { ...templateOf(mask) };' : 'const out = {};');
  fields.forEach(({ key }, i) => {
    lines.push(`if (v${i} !== undefined) out[${JSON.stringify(key)}] = v${i};`);
  });
  lines.push(compact ? 'return out;' : 'return { ...out };', '};');
  return lines.join('\n');
}

/** Compile one schema; exported for the agreement tests. */
export function compileCheck(schema: z.ZodType): Check {
  const def = defOf(schema);
  const byZod = delegate(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.type) {
    case 'number': {
      const tests = checks.map(numberTest);
      if (tests.includes(undefined)) return byZod;
      const all = tests as ((n: number) => boolean)[];
      return (value) => {
        if (typeof value !== 'number' || !Number.isFinite(value)) return INVALID;
        for (const test of all) if (!test(value)) return INVALID;
        return value;
      };
    }
    case 'string': {
      if (def.format === 'url' && checks.length === 0) return urlCheck(def, byZod);
      // Formats (url, email…) may rewrite the value (zod trims a URL): zod decides those.
      if (def.format !== undefined) return byZod;
      const tests = checks.map(lengthTest);
      if (tests.includes(undefined)) return byZod;
      const all = tests as ((n: number) => boolean)[];
      return (value) => {
        if (typeof value !== 'string') return INVALID;
        for (const test of all) if (!test(value.length)) return INVALID;
        return value;
      };
    }
    case 'enum': {
      if (checks.length > 0) return byZod;
      const values = new Set<unknown>(Object.values(def.entries ?? {}));
      return (value) => (values.has(value) ? value : INVALID);
    }
    case 'array': {
      if (checks.length > 0) return byZod;
      const element = compileCheck(def.element!);
      return (value) => {
        if (!Array.isArray(value)) return INVALID;
        let copy: unknown[] | undefined;
        for (let i = 0; i < value.length; i++) {
          const checked = element(value[i]);
          if (checked === INVALID) return INVALID;
          if (checked === value[i]) continue;
          copy ??= value.slice();
          copy[i] = checked;
        }
        return copy ?? value;
      };
    }
    case 'object': {
      const object = compileObjectCheck(schema as z.ZodObject, { reuse: true });
      return (value) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return INVALID;
        return object(value as Record<string, unknown>) ?? INVALID;
      };
    }
    default:
      return byZod;
  }
}

/**
 * `z.url()`: a URL already in the form the WHATWG parser gives back (`isCanonical`: no whitespace to
 * trim, nothing it would rewrite) whose scheme the schema's protocol pattern accepts is valid and
 * output as it is; zod judges anything else, and any hostname or normalize option.
 */
function urlCheck(def: Def, byZod: Check): Check {
  if (def.hostname !== undefined || def.normalize !== undefined) return byZod;
  const { protocol } = def;
  const accepts = (scheme: string) => {
    if (protocol === undefined) return true;
    protocol.lastIndex = 0;
    return protocol.test(scheme);
  };
  const http = accepts('http');
  const https = accepts('https');
  return (value) => {
    if (typeof value === 'string' && isCanonical(value)) {
      const secure = value.charCodeAt(4) === 115; // "https:"
      if (secure ? https : http) return value;
    }
    return byZod(value);
  };
}

function countKeys(object: object): number {
  let count = 0;
  for (const key in object) if (Object.hasOwn(object, key)) count++;
  return count;
}

function delegate(schema: z.ZodType): Check {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? result.data : INVALID;
  };
}

function numberTest(check: CheckDef): ((n: number) => boolean) | undefined {
  const bound = check.value;
  if (check.check === 'greater_than' && typeof bound === 'number')
    return check.inclusive ? (n) => n >= bound : (n) => n > bound;
  if (check.check === 'less_than' && typeof bound === 'number')
    return check.inclusive ? (n) => n <= bound : (n) => n < bound;
  if (check.check === 'number_format' && check.format === 'safeint') return Number.isSafeInteger;
  // A synchronous `refine` (the year's "0 or 1600 to 2100"); zod skips it once a check failed, and
  // so does `every` here.
  const { fn } = check;
  if (check.check === 'custom' && typeof fn === 'function') return (n) => fn(n) === true;
  return undefined;
}

function lengthTest(check: CheckDef): ((n: number) => boolean) | undefined {
  const { minimum, maximum } = check;
  if (check.check === 'min_length' && minimum !== undefined) return (n) => n >= minimum;
  if (check.check === 'max_length' && maximum !== undefined) return (n) => n <= maximum;
  return undefined;
}
