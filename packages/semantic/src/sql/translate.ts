import type { MetaCube } from '../meta.js';
import type { Query } from '../planner/query.js';
import { notSupported, SqlTranslationError } from './errors.js';
import { identifier, isNode, parseSelect, type Node } from './ast.js';
import { columnTypeOf, tableOf, type CatalogMember } from './catalog.js';
import { defaultName, itemOf, type Item, type Scope } from './columns.js';
import { conditionOf } from './filters.js';

/** A column of the answer: its name, its type in the schema line, and the key of its value in a load row. */
export interface TranslatedColumn {
  name: string;
  columnType: string;
  key: string;
  member: CatalogMember;
}

export interface SqlTranslation {
  query: Query;
  columns: TranslatedColumn[];
}

interface Selected {
  item: Item;
  name: string;
}

/** The single cube or view of FROM, with its alias. */
function scopeOf(select: Node, cubes: readonly MetaCube[]): Scope {
  const from = Array.isArray(select.from) ? (select.from as Node[]) : [];
  if (from.length === 0) throw notSupported('SELECT without FROM is not supported: select from a cube or view');
  if (from.length > 1) throw notSupported('Joins are not supported: select from one cube or view (a view joins cubes in the model)');
  const source = from[0]!;
  if (isNode(source.expr)) throw notSupported('Subqueries are not supported');
  if (source.tablesample) throw notSupported('TABLESAMPLE is not supported');
  if (typeof source.table !== 'string') throw notSupported('FROM names a cube or view');
  if (source.db !== null && source.db !== undefined && String(source.db).toLowerCase() !== 'public') {
    throw new SqlTranslationError('invalid_schema_name', `Schema ${String(source.db)} does not exist: cubes and views are in public`);
  }
  const table = tableOf(cubes, source.table);
  const qualifiers = new Set([table.name, ...(typeof source.as === 'string' ? [source.as] : [])].map((q) => q.toLowerCase()));
  return { table, qualifiers };
}

function rejectUnsupported(select: Node): void {
  if (select.with) throw notSupported('WITH (common table expressions) is not supported');
  if (select._next || select.set_op) throw notSupported(`${String(select.set_op ?? 'UNION').toUpperCase()} is not supported`);
  if (isNode(select.into) && select.into.position) throw notSupported('SELECT INTO is not supported');
  if (select.window) throw notSupported('WINDOW is not supported');
  if (isNode(select.distinct) && select.distinct.type === 'DISTINCT ON') throw notSupported('DISTINCT ON is not supported');
  if (Array.isArray(select.options) && select.options.length > 0) throw notSupported(`SELECT ${select.options.join(' ')} is not supported`);
}

/** An expression of GROUP BY or ORDER BY: an ordinal, a select alias, or an expression of the select list. */
function resolveReference(node: Node, selected: readonly Selected[], scope: Scope, clause: string): Selected {
  if (node.type === 'number') {
    const column = selected[Number(node.value) - 1];
    if (!column)
      throw new SqlTranslationError('invalid_column_reference', `${clause} ${String(node.value)} is not a column of the select list`);
    return column;
  }
  if (node.type === 'column_ref' && (node.table === null || node.table === undefined)) {
    const alias = selected.find((s) => s.name === identifier(node.column));
    if (alias) return alias;
  }
  const item = itemOf(node, scope);
  const match = selected.find((s) => s.item.key === item.key);
  if (!match) throw new SqlTranslationError('grouping_error', `${clause} ${item.member.name} must be a column of the select list`);
  return match;
}

/** GROUP BY must list exactly the non-aggregated columns; without it, dimension-only queries are row-level. */
function checkGrouping(select: Node, selected: readonly Selected[], scope: Scope): { ungrouped: boolean } {
  const groupBy = isNode(select.groupby) && Array.isArray(select.groupby.columns) ? (select.groupby.columns as Node[]) : [];
  const grouped = selected.filter((s) => s.item.kind !== 'measure');
  const hasMeasures = grouped.length < selected.length;
  if (groupBy.length === 0) {
    if (hasMeasures && grouped.length > 0)
      throw new SqlTranslationError('grouping_error', `Column ${grouped[0]!.name} must appear in GROUP BY or be aggregated`);
    const distinct = isNode(select.distinct) && select.distinct.type === 'DISTINCT';
    return { ungrouped: !hasMeasures && !distinct };
  }
  const keys = new Set<string>();
  for (const node of groupBy) {
    const column = resolveReference(node, selected, scope, 'GROUP BY');
    if (column.item.kind === 'measure') throw new SqlTranslationError('grouping_error', `GROUP BY ${column.name} refers to an aggregate`);
    keys.add(column.item.key);
  }
  const missing = grouped.find((s) => !keys.has(s.item.key));
  if (missing) throw new SqlTranslationError('grouping_error', `Column ${missing.name} must appear in GROUP BY or be aggregated`);
  return { ungrouped: false };
}

function limitOf(select: Node): { limit?: number; offset?: number } {
  const limit = isNode(select.limit) ? select.limit : {};
  const values = Array.isArray(limit.value) ? (limit.value as Node[]) : [];
  const numbers = values.map((v) => {
    if (v.type === 'origin' && String(v.value).toLowerCase() === 'all') return undefined;
    if (v.type !== 'number' || !Number.isInteger(v.value) || (v.value as number) < 0) {
      throw new SqlTranslationError('invalid_parameter_value', 'LIMIT and OFFSET take non-negative integers');
    }
    return v.value as number;
  });
  if (limit.seperator === 'offset' && numbers.length === 1) return numbers[0] === undefined ? {} : { offset: numbers[0] };
  const [count, offset] = numbers;
  return { ...(count !== undefined ? { limit: count } : {}), ...(offset ? { offset } : {}) };
}

/**
 * Translates one SELECT over a cube or view into Cube's query format. `cubes` is the caller's
 * `/v1/meta`, so names resolve exactly as the caller may query them; anything the translation does
 * not understand is a SqlTranslationError naming it, and no SQL text is ever passed on.
 */
export function translateSql(sql: string, cubes: readonly MetaCube[]): SqlTranslation {
  const select = parseSelect(sql);
  rejectUnsupported(select);
  const scope = scopeOf(select, cubes);
  const selected: Selected[] = (select.columns as Node[]).map((column) => {
    const expr = column.expr as Node;
    const item = itemOf(expr, scope);
    return { item, name: typeof column.as === 'string' ? column.as : defaultName(expr, item) };
  });
  const { ungrouped } = checkGrouping(select, selected, scope);
  const where = isNode(select.where) ? conditionOf(select.where, scope, 'WHERE') : { filters: [], segments: [] };
  const having = isNode(select.having) ? conditionOf(select.having, scope, 'HAVING') : { filters: [], segments: [] };

  const order = (Array.isArray(select.orderby) ? (select.orderby as Node[]) : []).map((entry): [string, 'asc' | 'desc'] => {
    if (entry.nulls) throw notSupported(`ORDER BY ... ${String(entry.nulls)} is not supported`);
    const { item } = resolveReference(entry.expr as Node, selected, scope, 'ORDER BY');
    return [item.member.name, String(entry.type).toUpperCase() === 'DESC' ? 'desc' : 'asc'];
  });

  const unique = <T>(values: T[]) => [...new Set(values)];
  const query: Query = {
    measures: unique(selected.flatMap((s) => (s.item.kind === 'measure' ? [s.item.member.name] : []))),
    dimensions: unique(selected.flatMap((s) => (s.item.kind === 'dimension' ? [s.item.member.name] : []))),
    timeDimensions: [
      ...new Map(
        selected.flatMap((s) =>
          s.item.kind === 'time' ? [[s.item.key, { dimension: s.item.member.name, granularity: s.item.granularity }] as const] : [],
        ),
      ).values(),
    ],
    filters: [...where.filters, ...having.filters],
    ...(where.segments.length > 0 ? { segments: unique(where.segments) } : {}),
    ...(order.length > 0 ? { order } : {}),
    ...limitOf(select),
    ...(ungrouped ? { ungrouped: true } : {}),
  };
  const columns = selected.map((s) => ({ name: s.name, columnType: columnTypeOf(s.item.member), key: s.item.key, member: s.item.member }));
  return { query, columns };
}
