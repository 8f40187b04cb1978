import {
  type Condition,
  compileCondition,
  compilePath,
  isSet,
  type RawFields,
  scalarOf,
} from '../normalize/index.ts';

/** `"a", "b" or "c"`. */
function listWords(values: readonly string[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

const conditionsOf = (when: Condition | Condition[] | undefined): Condition[] =>
  when === undefined ? [] : Array.isArray(when) ? when : [when];

/** A rule's `when` in words: `PropertyType is "ResidentialLease" or "CommercialLease"`. */
export function whenWords(when: Condition | Condition[]): string {
  return conditionsOf(when).map(conditionWords).join(' and ');
}

function conditionWords(c: Condition): string {
  const parts: string[] = [];
  if (c.set !== undefined) parts.push(`${c.path} is ${c.set ? 'set' : 'empty'}`);
  if (c.in) parts.push(`${c.path} is ${listWords(c.in)}`);
  if (c.notIn)
    parts.push(
      c.notIn.length === 1 && c.notIn[0] === ''
        ? `${c.path} is not empty`
        : `${c.path} is not ${listWords(c.notIn)}`,
    );
  return parts.join(' and ') || `${c.path} is anything`;
}

/**
 * The conditions of a rule that do not hold for this record, each with the value it read:
 * `PropertyType is "Residential", not "ResidentialLease" or "CommercialLease"`. Empty when they all
 * hold (or the rule has none). Pure; each test is the mapping's own (`compileCondition`).
 */
export function failedConditions(when: Condition | Condition[] | undefined, record: RawFields): string[] {
  return conditionsOf(when)
    .filter((c) => !compileCondition(c)(record))
    .map((c) => failureWords(c, record));
}

function failureWords(c: Condition, record: RawFields): string {
  const { path } = c;
  const value = compilePath(path)(record)
    .map((v) => scalarOf(v) ?? v)
    .filter(isSet)[0];
  const shown = value === undefined ? undefined : typeof value === 'object' ? '(an element)' : String(value);
  const read = shown === undefined ? `${path} is empty` : `${path} is ${JSON.stringify(shown)}`;
  const fails = (part: Condition) => !compileCondition(part)(record);
  if (c.set !== undefined && fails({ path, set: c.set }))
    return c.set ? `${path} is empty` : `${read}, not empty`;
  if (c.in && fails({ path, in: c.in })) return `${read}, not ${listWords(c.in)}`;
  if (shown === undefined) return read;
  return `${read}, which the rule excludes`;
}
