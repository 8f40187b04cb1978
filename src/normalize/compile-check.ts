import type { z } from 'zod';

/** What a compiled check returns for a value the schema rejects (or that it cannot judge alone). */
export const INVALID: unique symbol = Symbol('invalid');

/** The value as the schema outputs it, or INVALID. */
type Check = (value: unknown) => unknown;

/** The parts of zod's internal definitions the compiler reads (`schema._zod.def`, stable in zod 4). */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  format?: string;
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
  const values: unknown[] = new Array(fields.length);
  return (input) => {
    let mask = 0;
    let present = 0;
    let same = true;
    for (let i = 0; i < fields.length; i++) {
      const { key, optional, check } = fields[i]!;
      const value = input[key];
      values[i] = undefined;
      if (value === undefined) {
        if (optional) continue;
        return undefined;
      }
      const checked = check(value);
      if (checked === INVALID) return undefined;
      values[i] = checked;
      mask |= 1 << i;
      present++;
      if (checked !== value) same = false;
    }
    // An element already exactly as zod would output it (`{Key, value}` entries) is kept, not copied.
    if (
      options.reuse &&
      same &&
      Object.getPrototypeOf(input) === Object.prototype &&
      countKeys(input) === present
    )
      return input as Record<string, unknown>;
    // A mask holds 32 fields; a larger schema copies its dictionary into a compact object instead.
    const out: Record<string, unknown> = fields.length <= 32 ? { ...templateOf(mask) } : {};
    for (let i = 0; i < fields.length; i++) if (values[i] !== undefined) out[fields[i]!.key] = values[i];
    return fields.length <= 32 ? out : { ...out };
  };
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
