import { isObject } from './config.js';
import { isIdentifier, memberName } from './naming.js';
import { DbtProjectError, type DbtColumn, type DbtModel } from './types.js';

/**
 * The measure types a column's `meta.measures` may ask for: Cube's aggregating types. Cube's
 * `number`, `string`, `time` and `boolean` measures need an aggregate SQL expression, which a
 * bare column is not, so they are refused rather than generated into queries that fail.
 */
export const COLUMN_MEASURE_TYPES = ['avg', 'count', 'count_distinct', 'count_distinct_approx', 'max', 'min', 'sum'] as const;

const ENTRY_KEYS = ['description', 'name', 'title', 'type'];

export interface ColumnMeasure {
  name: string;
  type: string;
  description?: string;
  title?: string;
}

/** The measures declared in a column's `meta.measures`: `[{name?, type?}]`, `sum` when the type is left out. */
export function columnMeasures(model: DbtModel, column: DbtColumn): ColumnMeasure[] {
  const declared = column.meta['measures'];
  if (declared === undefined || declared === null) return [];
  const where = `Model "${model.name}", column "${column.name}"`;
  const fail = (message: string): never => {
    throw new DbtProjectError(`${where}: ${message}`, model.path || null);
  };
  if (!Array.isArray(declared)) fail('meta.measures must be a list of {name, type}');
  return (declared as unknown[]).map((entry) => {
    // A bare type name ("sum") is accepted as a short form of {type: sum}.
    const object: Record<string, unknown> = typeof entry === 'string' ? { type: entry } : isObject(entry) ? entry : {};
    if (!isObject(object) || (typeof entry !== 'string' && !isObject(entry))) fail('each entry of meta.measures must be {name, type}');
    const unknown = Object.keys(object).filter((k) => !ENTRY_KEYS.includes(k));
    if (unknown.length > 0)
      fail(
        `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} in meta.measures; expected ${ENTRY_KEYS.join(', ')}`,
      );
    const type = object['type'] ?? 'sum';
    if (typeof type !== 'string' || !(COLUMN_MEASURE_TYPES as readonly string[]).includes(type)) {
      fail(`unknown measure type ${JSON.stringify(type)}; expected one of ${COLUMN_MEASURE_TYPES.join(', ')}`);
    }
    const rawName = object['name'] ?? `${memberName(column.name)}_${type as string}`;
    if (typeof rawName !== 'string' || !isIdentifier(rawName)) {
      fail(`measure name ${JSON.stringify(rawName)} is not a valid name (letters, digits and underscores, not starting with a digit)`);
    }
    const measure: ColumnMeasure = { name: rawName as string, type: type as string };
    if (typeof object['description'] === 'string') measure.description = object['description'];
    if (typeof object['title'] === 'string') measure.title = object['title'];
    return measure;
  });
}
