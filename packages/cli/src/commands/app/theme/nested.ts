import { UsageError } from '../../../core/errors.js';

/**
 * Flags that set one property deep inside a theme body (`--light-accent-color` is
 * `light.accentColor`). The value `none` stands for null, which clears a property where the
 * operation allows it.
 */
export type FlagPaths = Record<string, readonly string[]>;

export function setIn(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

/** The body the given flags describe; `convert` turns a flag's text into its value (numbers, booleans). */
export function bodyFromFlags(
  opts: Record<string, unknown>,
  paths: FlagPaths,
  convert: (key: string, value: string) => unknown = (_k, v) => (v === 'none' ? null : v),
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const [key, path] of Object.entries(paths)) {
    const value = opts[key];
    if (typeof value === 'string') setIn(into, path, convert(key, value));
  }
  return into;
}

export function asObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${what} must be a JSON object`);
  return structuredClone(value) as Record<string, unknown>;
}
