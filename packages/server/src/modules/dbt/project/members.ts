import { isObject } from './config.js';
import { DbtProjectError, type DbtColumn, type DbtModel } from './types.js';

/* Names of cubes and members, SQL identifiers, and the measures a column declares. */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A dbt name → a cube or member name our compiler accepts (letters, digits, underscores). */
export function memberName(name: string): string {
  const cleaned = name.trim().replace(/[^A-Za-z0-9_]+/g, '_');
  if (cleaned === '') return '_';
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** An identifier as SQL must write it: plain when it is a plain name (so the warehouse's case rules apply), else quoted. */
export function sqlIdentifier(name: string): string {
  return isIdentifier(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** The relation of a model as far as it is known: database.schema.alias, schema.alias or alias. */
export function relationOf(model: { database: string | null; schema: string | null; alias: string }): string {
  const parts =
    model.schema === null
      ? [model.alias]
      : model.database === null
        ? [model.schema, model.alias]
        : [model.database, model.schema, model.alias];
  return parts.map(sqlIdentifier).join('.');
}

/**
 * Model YAML is rendered as a Jinja template before it is parsed, so text taken from the dbt
 * project (a description mentioning `{{ doc('x') }}`, say) must not be read as Jinja: each
 * delimiter is written as a Jinja expression that prints it.
 */
export function escapeJinja(yaml: string): string {
  return yaml.replace(/\{[{%#]/g, (delimiter) => `{{ '${delimiter}' }}`);
}

/**
 * The measure types a column's `meta.measures` may ask for: Cube's aggregating types. Cube's
 * `number`, `string`, `time` and `boolean` measures need an aggregate SQL expression, which a
 * bare column is not, so they are refused rather than generated into queries that fail.
 */
export const COLUMN_MEASURE_TYPES = ['avg', 'count', 'count_distinct', 'count_distinct_approx', 'max', 'min', 'sum'] as const;

/** Cube's measure types that take an expression over other aggregates (refused for a bare column). */
const EXPRESSION_TYPES = ['number', 'string', 'time', 'boolean'];

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
    const object =
      typeof entry === 'string' ? { type: entry } : isObject(entry) ? entry : fail('each entry of meta.measures must be {name, type}');
    const unknown = Object.keys(object).filter((k) => !ENTRY_KEYS.includes(k));
    if (unknown.length > 0)
      fail(
        `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} in meta.measures; expected ${ENTRY_KEYS.join(', ')}`,
      );
    const type = object['type'] ?? 'sum';
    if (typeof type !== 'string' || !(COLUMN_MEASURE_TYPES as readonly string[]).includes(type)) {
      const expected = `expected one of ${COLUMN_MEASURE_TYPES.join(', ')}`;
      if (typeof type === 'string' && EXPRESSION_TYPES.includes(type)) {
        fail(`measure type "${type}" needs an aggregate SQL expression, not a column; ${expected}`);
      }
      fail(`unknown measure type ${JSON.stringify(type)}; ${expected}`);
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

export type DimensionType = 'string' | 'number' | 'time' | 'boolean';

/**
 * A warehouse column type (as dbt's `data_type` spells it, any case, with or without precision)
 * → the cube dimension type; null when the type says nothing useful (then the name decides).
 */
export function dimensionTypeOf(dataType: string): DimensionType | null {
  const base = dataType.trim().toLowerCase().replace(/\(.*$/, '').replace(/\s+/g, ' ').trim();
  if (base === '') return null;
  if (/^(timestamp|datetime|date|time)(tz|_ntz|_ltz|_tz)?\b/.test(base) || base === 'timestamptz' || base === 'smalldatetime') {
    return 'time';
  }
  if (/^(bool|boolean|bit)$/.test(base)) return 'boolean';
  if (
    /^(tinyint|smallint|mediumint|int|integer|bigint|hugeint|utinyint|usmallint|uinteger|ubigint|uhugeint|int1|int2|int4|int8|int16|int32|int64|int128|uint8|uint16|uint32|uint64|byteint|serial|bigserial|smallserial|float|float4|float8|float32|float64|double|double precision|real|decimal|numeric|number|bignumeric|money|smallmoney)$/.test(
      base,
    )
  ) {
    return 'number';
  }
  if (/^(unsigned )?(tinyint|smallint|int|integer|bigint)( unsigned)?$/.test(base)) return 'number';
  if (
    /^(varchar|char|character|character varying|nvarchar|nchar|text|string|str|uuid|enum|citext|bpchar|name|varchar2|nvarchar2|clob|json|jsonb|variant|object|array|struct|map|super|blob|bytea|binary|varbinary|bytes|interval|geography|geometry|inet|list)$/.test(
      base,
    )
  ) {
    return 'string';
  }
  if (/\[\]$/.test(base) || /^(array|struct|map|list)</.test(base)) return 'string';
  return null;
}

/** The dimension type a column's name suggests, as analysts name columns. */
export function dimensionTypeFromName(column: string): DimensionType {
  // `createdAt` and `Order Date` read as created_at and order_date.
  const name = column
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (/^(is|has|was|can|should)_/.test(name)) return 'boolean';
  if (
    /(_at|_date|_time|_timestamp|_ts|_on|_day|_datetime)$/.test(name) ||
    /^(date|time|timestamp|datetime|created|updated|deleted|modified|day|month|week|year_month)$/.test(name) ||
    /^(date|created|updated)_/.test(name)
  ) {
    return 'time';
  }
  if (
    /^(id|amount|price|cost|quantity|qty|total|revenue|count|number|num|value|score|rate|age|weight|height|width|length|balance|discount|tax|fee|year|lat|latitude|lon|lng|longitude|percent|percentage|ratio|duration|size|units|sales|profit|margin)$/.test(
      name,
    ) ||
    /(_id|_count|_amount|_price|_cost|_quantity|_qty|_total|_number|_num|_value|_score|_rate|_pct|_percent|_ratio|_seconds|_minutes|_hours|_days|_cents|_usd|_eur|_revenue|_sales|_tax|_fee|_balance|_weight|_duration|_size)$/.test(
      name,
    ) ||
    /^(num|count|total|sum|avg)_/.test(name)
  ) {
    return 'number';
  }
  return 'string';
}

export function columnDimensionType(column: { name: string; dataType: string | null }): DimensionType {
  return (column.dataType === null ? null : dimensionTypeOf(column.dataType)) ?? dimensionTypeFromName(column.name);
}
