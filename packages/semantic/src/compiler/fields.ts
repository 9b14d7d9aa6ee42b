/** Small readers for loosely-typed YAML values; they return undefined rather than throw. */

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Cube accepts both `sql_table` and `sqlTable`; so do we. */
export function pick(obj: Obj, snake: string): unknown {
  if (obj[snake] !== undefined) return obj[snake];
  const camel = snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return obj[camel];
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Members and joins come as YAML lists of `{name, ...}` or, in older models, as maps keyed by name. */
export function namedList(v: unknown): Array<{ name: string | undefined; value: Obj; index: number | string }> {
  if (Array.isArray(v)) {
    return v.map((value: unknown, index) => ({
      name: isObj(value) ? str(value['name']) : undefined,
      value: isObj(value) ? value : {},
      index,
    }));
  }
  if (isObj(v)) {
    return Object.entries(v).map(([name, value]) => ({ name, value: isObj(value) ? value : {}, index: name }));
  }
  return [];
}

export function stringList(v: unknown): string[] | undefined {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return undefined;
}

export const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether Cube shows a cube, view or member in its API: `public`, else the older `shown`, else the
 * default (a primary key is hidden unless it says otherwise, as in Cube's meta transformer).
 */
export function isPublic(v: Obj, byDefault = true): boolean {
  for (const key of ['public', 'shown']) if (typeof v[key] === 'boolean') return v[key] as boolean;
  return byDefault;
}
