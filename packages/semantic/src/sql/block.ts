import type { Filter, Query, TimeDimension } from '../planner/query.js';
import { notSupported, SqlTranslationError } from './errors.js';
import { conditionOf } from './filters.js';
import { itemName, itemOf, type Item } from './items.js';
import { figureName } from './names.js';
import { countOf, ordinalOf, type Params } from './literals.js';
import { fieldsOf, isFields, kindOf, listOf, namesOf, type Fields } from './pg-ast.js';
import type { Scope } from './scope.js';

/** A SELECT over cubes as one semantic query, and whether that query answers it alone. */
export interface BlockPlan {
  query: Query;
  /** The query's members, in the order post-processing reads them as columns. */
  items: Item[];
  /** The query's rows are the block's rows (column by column, `outputs`); otherwise post-processing computes them. */
  full: boolean;
  outputs: Array<{ name: string; item: Item | undefined }>;
  /** HAVING became measure filters of the query. */
  havingPushed: boolean;
}

/** An entry of GROUP BY or ORDER BY that names a select-list column by position or alias. */
function targetReferenced(node: unknown, targets: readonly Fields[], clause: string): number | undefined {
  const ordinal = ordinalOf(node);
  if (ordinal !== undefined) {
    if (ordinal < 1 || ordinal > targets.length)
      throw new SqlTranslationError('invalid_column_reference', `${clause} ${ordinal} is not a column of the select list`);
    return ordinal - 1;
  }
  const names = namesOf(fieldsOf(node, 'ColumnRef')?.fields);
  if (names.length !== 1) return undefined;
  const index = targets.findIndex((t) => t.name === names[0]);
  return index >= 0 ? index : undefined;
}

/** Moves `BETWEEN` on a time dimension into the query's date range, as Cube's SQL API does. */
function dateRanges(filters: Filter[], times: Map<string, TimeDimension>): Filter[] {
  return filters.filter((filter) => {
    if (!('member' in filter) || filter.operator !== 'inDateRange' || !filter.values || filter.values.length !== 2) return true;
    const range: [string, string] = [String(filter.values[0]), String(filter.values[1])];
    const existing = [...times.values()].find((t) => t.dimension === filter.member && t.dateRange === undefined);
    if (existing) existing.dateRange = range;
    else times.set(`${filter.member}.range`, { dimension: filter.member, dateRange: range });
    return false;
  });
}

const ref = (table: string, column: string) => ({ ColumnRef: { fields: [{ String: { sval: table } }, { String: { sval: column } }] } });

/**
 * `SELECT *` (or `t.*`) over cubes, as Cube's SQL API reads it: every dimension, grouped, and every
 * measure, as BI tools browsing a table send it. The select list is rewritten to name them.
 */
function expandStar(select: Fields, scope: Scope): void {
  const targets = listOf(select.targetList);
  const stars = targets.filter((t) => namesOf(fieldsOf(fieldsOf(t, 'ResTarget')?.val, 'ColumnRef')?.fields).includes('*'));
  if (stars.length === 0) return;
  if (listOf(select.groupClause).length > 0) throw notSupported('SELECT * with GROUP BY is not supported over a cube: name the columns');
  const expanded: unknown[] = [];
  const grouped: unknown[] = [];
  for (const target of targets) {
    const names = namesOf(fieldsOf(fieldsOf(target, 'ResTarget')?.val, 'ColumnRef')?.fields);
    if (!names.includes('*')) {
      expanded.push(target);
      continue;
    }
    const qualifier = names.length > 1 ? names[names.length - 2]!.toLowerCase() : undefined;
    const tables = scope.tables.filter((t) => qualifier === undefined || t.qualifiers.has(qualifier));
    if (tables.length === 0) throw new SqlTranslationError('undefined_table', `Unknown table ${qualifier} in ${qualifier}.*`);
    for (const { table } of tables) {
      const members = [...table.members];
      for (const [short] of members.filter(([, m]) => m.kind === 'dimension')) {
        expanded.push({ ResTarget: { name: short, val: ref(table.name, short) } });
        grouped.push(ref(table.name, short));
      }
      for (const [short] of members.filter(([, m]) => m.kind === 'measure')) {
        const measure = { FuncCall: { funcname: [{ String: { sval: 'measure' } }], args: [ref(table.name, short)] } };
        expanded.push({ ResTarget: { name: short, val: measure } });
      }
    }
  }
  select.targetList = expanded;
  if (grouped.length > 0) select.groupClause = grouped;
}

/**
 * Plans one SELECT whose FROM reads cubes: the members it uses become one semantic query (WHERE as
 * filters, HAVING as measure filters, ORDER BY and LIMIT too when nothing is left to compute); what
 * the query cannot say (expressions, window functions, NULLS FIRST, ...) is left to post-processing.
 */
export function planBlock(select: Fields, scope: Scope, params: Params): BlockPlan {
  if (select.intoClause) throw notSupported('SELECT INTO is not supported');
  if (listOf(select.lockingClause).length > 0) throw notSupported('FOR UPDATE and FOR SHARE are not supported');
  if (select.limitOption === 'LIMIT_OPTION_WITH_TIES') throw notSupported('FETCH ... WITH TIES is not supported');
  expandStar(select, scope);
  const items = new Map<string, Item>();
  const add = (item: Item) => (items.has(item.key) ? items.get(item.key)! : (items.set(item.key, item), item));
  /** Every member inside an expression left to post-processing. */
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (!isFields(node)) return;
    if (kindOf(node) === 'SelectStmt')
      throw notSupported('Subqueries inside a query over a cube are not supported: query the cube in a subquery of its own');
    const call = fieldsOf(node, 'FuncCall');
    if (call?.over && call.agg_star)
      throw notSupported("Window functions over a cube's rows are not supported: apply them to MEASURE(...) or grouped columns");
    const item = kindOf(node) ? itemOf(node, scope, params) : undefined;
    if (item) add(item);
    else Object.values(node).forEach(collect);
  };
  let full = true;
  const targets = listOf(select.targetList).map((t) => fieldsOf(t, 'ResTarget')!);
  const targetItems = targets.map((t) => {
    if (namesOf(fieldsOf(t.val, 'ColumnRef')?.fields).includes('*'))
      throw notSupported('SELECT * is not supported over a cube: name the columns');
    const item = itemOf(t.val, scope, params);
    if (item) return add(item);
    full = false;
    collect(t.val);
    return undefined;
  });

  const groupKeys = new Set<string>();
  for (const node of listOf(select.groupClause)) {
    if (kindOf(node) === 'GroupingSet') throw notSupported('GROUP BY ROLLUP, CUBE and GROUPING SETS are not supported');
    const index = targetReferenced(node, targets, 'GROUP BY');
    const item = index !== undefined ? targetItems[index] : itemOf(node, scope, params);
    if (!item) throw notSupported('GROUP BY over a cube takes dimension columns and DATE_TRUNC, not expressions');
    if (item.kind === 'measure') throw new SqlTranslationError('grouping_error', `GROUP BY ${item.member.name} refers to an aggregate`);
    groupKeys.add(add(item).key);
  }

  let havingFilters: Filter[] = [];
  let havingPushed = true;
  if (select.havingClause) {
    try {
      havingFilters = conditionOf(select.havingClause, { scope, params }, 'HAVING').filters;
    } catch (error) {
      if (!(error instanceof SqlTranslationError) || !['feature_not_supported', 'grouping_error'].includes(error.condition)) throw error;
      havingPushed = false;
      full = false;
      collect(select.havingClause);
    }
  }

  const order: Array<[string, 'asc' | 'desc']> = [];
  for (const entry of listOf(select.sortClause)) {
    const sort = fieldsOf(entry, 'SortBy')!;
    if (sort.sortby_dir === 'SORTBY_USING') throw notSupported('ORDER BY ... USING is not supported');
    if (sort.sortby_nulls !== undefined && sort.sortby_nulls !== 'SORTBY_NULLS_DEFAULT') full = false;
    const index = targetReferenced(sort.node, targets, 'ORDER BY');
    const item = index !== undefined ? targetItems[index] : itemOf(sort.node, scope, params);
    if (item) order.push([add(item).member.name, sort.sortby_dir === 'SORTBY_DESC' ? 'desc' : 'asc']);
    else {
      full = false;
      if (index === undefined) collect(sort.node);
    }
  }

  const distinct = listOf(select.distinctClause);
  const distinctOn = distinct.filter((d) => kindOf(d) !== undefined);
  if (distinctOn.length > 0 || listOf(select.windowClause).length > 0) {
    full = false;
    collect(distinctOn);
    collect(select.windowClause);
  }
  const all = [...items.values()];
  if (all.length === 0) throw notSupported('A query over a cube selects at least one dimension, DATE_TRUNC or measure');
  const grouped = all.some((i) => i.kind === 'measure') || groupKeys.size > 0;
  if (grouped) {
    const ungrouped = all.find((i) => i.kind !== 'measure' && !groupKeys.has(i.key));
    if (ungrouped) {
      const index = targetItems.indexOf(ungrouped);
      const name =
        index >= 0 ? ((targets[index]!.name as string | undefined) ?? itemName(targets[index]!.val, ungrouped)) : ungrouped.member.name;
      throw new SqlTranslationError('grouping_error', `Column ${name} must appear in GROUP BY or be aggregated`);
    }
  }
  // DISTINCT over a grouped query repeats its rows only when GROUP BY has columns the select list drops.
  if (distinct.length > 0 && grouped && [...groupKeys].some((k) => !targetItems.some((t) => t?.key === k))) full = false;

  const where = select.whereClause ? conditionOf(select.whereClause, { scope, params }, 'WHERE') : { filters: [], segments: [] };
  const limit = countOf(select.limitCount, params, 'LIMIT');
  const offset = countOf(select.limitOffset, params, 'OFFSET');
  const times = new Map<string, TimeDimension>();
  for (const item of all) if (item.kind === 'time') times.set(item.key, { dimension: item.member.name, granularity: item.granularity });
  const filters = dateRanges([...where.filters, ...(havingPushed ? havingFilters : [])], times);
  const unique = (values: string[]) => [...new Set(values)];
  const query: Query = {
    measures: all.filter((i) => i.kind === 'measure').map((i) => i.member.name),
    dimensions: all.filter((i) => i.kind === 'dimension').map((i) => i.member.name),
    timeDimensions: [...times.values()],
    filters,
    ...(where.segments.length > 0 ? { segments: unique(where.segments) } : {}),
    ...(full && order.length > 0 ? { order } : {}),
    ...(full && limit !== undefined ? { limit } : {}),
    ...(full && offset ? { offset } : {}),
    ...(!grouped && distinct.length === 0 ? { ungrouped: true } : {}),
  };
  const outputs = targets.map((t, i) => {
    const item = targetItems[i];
    return { name: typeof t.name === 'string' ? t.name : item ? itemName(t.val, item) : figureName(t.val), item };
  });
  return { query, items: all, full, outputs, havingPushed };
}
