import type { z } from 'zod';

/** The parts of a zod schema's definition the walk reads (zod 4 keeps them on `_zod.def`). */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  valueType?: z.ZodType;
  keyType?: z.ZodType;
  entries?: Record<string, string | number>;
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * The keys an object schema accepts at `path` of the input (`['feeds', 0, 'source']`), for
 * suggesting the nearest one after a typo. Wrappers (optional, default, pipe) are seen through;
 * at a union, the keys of every object branch count.
 */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(walk(schema, path, 0))];
}

function walk(schema: z.ZodType | undefined, path: readonly PropertyKey[], depth: number): string[] {
  if (!schema || depth > 64) return [];
  const def = defOf(schema);
  const next = (child: z.ZodType | undefined, rest = path) => walk(child, rest, depth + 1);
  switch (def.type) {
    case 'object':
      if (path.length === 0) return Object.keys(def.shape ?? {});
      return next(def.shape?.[String(path[0])], path.slice(1));
    case 'array':
      return typeof path[0] === 'number' ? next(def.element, path.slice(1)) : [];
    case 'record':
      // A record keyed by an enum (`mapping.fields`: listing field names) knows its keys too.
      if (path.length === 0) return enumValues(def.keyType);
      return next(def.valueType, path.slice(1));
    case 'union':
      return (def.options ?? []).flatMap((option) => next(option));
    case 'intersection':
      return [...next(def.left), ...next(def.right)];
    case 'pipe':
      return [...next(def.in), ...next(def.out)];
    case 'lazy':
      return next(def.getter?.());
    default:
      return def.innerType ? next(def.innerType) : [];
  }
}

function enumValues(schema: z.ZodType | undefined): string[] {
  const def = schema ? defOf(schema) : undefined;
  return def?.type === 'enum' ? Object.values(def.entries ?? {}).map(String) : [];
}
