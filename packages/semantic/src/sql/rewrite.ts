import type { MetaCube } from '../meta.js';
import type { Query } from '../planner/query.js';
import { planBlock, type BlockPlan } from './block.js';
import { notSupported, SqlTranslationError } from './errors.js';
import { itemOf, type Item } from './items.js';
import { ordinalOf, type Params } from './literals.js';
import { figureName, selectNames } from './names.js';
import { fieldsOf, isFields, kindOf, listOf, namesOf, type Fields, type PgNode } from './pg-ast.js';
import { cubeOf, scopeOf, type Names, type Scope } from './scope.js';

/** A semantic query whose rows post-processing reads as the table `table`, one column per item. */
export interface Pushed {
  table: string;
  query: Query;
  items: Item[];
}

/** How a statement is answered: by one semantic query alone, or by post-processing over pushed-down results. */
export type SqlPlan =
  | { kind: 'pushdown'; query: Query; columns: Array<{ name: string; item: Item }> }
  | { kind: 'engine'; pushed: Pushed[]; statement: PgNode; names: string[] | undefined };

/** The column of a pushed-down result holding item `i`, named so no SQL of the caller can mean it. */
export const pushedColumn = (i: number) => `__m${i}`;

const columnRef = (name: string): PgNode => ({ ColumnRef: { fields: [{ String: { sval: name } }] } });

function cteNames(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => cteNames(n, into));
  else if (isFields(node)) {
    const cte = fieldsOf(node, 'CommonTableExpr');
    if (cte && typeof cte.ctename === 'string') into.add(cte.ctename);
    Object.values(node).forEach((v) => cteNames(v, into));
  }
  return into;
}

const isSetOp = (select: Fields) => select.op !== undefined && select.op !== 'SETOP_NONE';

/** A select-list position or alias an ORDER BY entry names, which stays as it is after rewriting. */
function namesTarget(node: unknown, select: Fields): boolean {
  if (ordinalOf(node) !== undefined) return true;
  const names = namesOf(fieldsOf(node, 'ColumnRef')?.fields);
  return names.length === 1 && listOf(select.targetList).some((t) => fieldsOf(t, 'ResTarget')?.name === names[0]);
}

/**
 * Rewrites a SELECT over cubes in place into a SELECT over its pushed-down result: each member
 * becomes the result's column, WHERE and GROUP BY are gone (the query did them), and HAVING the
 * query could not express filters the result's rows.
 */
function rewriteBlock(select: Fields, plan: BlockPlan, scope: Scope, table: string, params: Params): void {
  const columns = new Map(plan.items.map((item, i) => [item.key, pushedColumn(i)]));
  const replace = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(replace);
    if (!isFields(node)) return node;
    const param = fieldsOf(node, 'ParamRef');
    if (param) return params.constant(Number(param.number));
    const item = kindOf(node) ? itemOf(node, scope, params) : undefined;
    if (item) return columnRef(columns.get(item.key)!);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replace(v)]));
  };
  for (const target of listOf(select.targetList)) {
    const t = fieldsOf(target, 'ResTarget')!;
    t.name ??= figureName(t.val);
    t.val = replace(t.val);
  }
  select.fromClause = [{ RangeVar: { relname: table, inh: true, relpersistence: 'p' } }];
  if (!plan.havingPushed && select.havingClause) select.whereClause = replace(select.havingClause);
  else delete select.whereClause;
  delete select.groupClause;
  delete select.havingClause;
  for (const entry of listOf(select.sortClause)) {
    const sort = fieldsOf(entry, 'SortBy')!;
    if (!namesTarget(sort.node, select)) sort.node = replace(sort.node);
  }
  if (select.distinctClause) select.distinctClause = replace(select.distinctClause);
  if (select.windowClause) select.windowClause = replace(select.windowClause);
  if (plan.full) {
    delete select.limitCount;
    delete select.limitOffset;
  } else {
    if (select.limitCount) select.limitCount = replace(select.limitCount);
    if (select.limitOffset) select.limitOffset = replace(select.limitOffset);
  }
}

const REFUSED_RANGES: Record<string, string> = {
  RangeFunction: 'Functions in FROM are not supported: select from cubes, views, CTEs and subqueries',
  RangeTableFunc: 'XMLTABLE is not supported',
  RangeTableSample: 'TABLESAMPLE is not supported',
};

/**
 * Plans a statement: a SELECT the semantic query answers alone is pushed down whole; anything else
 * has each SELECT over cubes replaced by its pushed-down result, and the rest runs in the
 * post-processing engine over those results only (a name that is neither a cube nor a CTE is refused).
 */
export function planStatement(statement: PgNode, cubes: readonly MetaCube[], params: Params): SqlPlan {
  const names: Names = { cubes, ctes: cteNames(statement, new Set()) };
  const top = fieldsOf(statement, 'SelectStmt')!;
  if (!isSetOp(top) && !top.withClause) {
    const scope = scopeOf(top, names);
    if (scope) {
      const plan = planBlock(top, scope, params);
      if (plan.full) return { kind: 'pushdown', query: plan.query, columns: plan.outputs.map((o) => ({ name: o.name, item: o.item! })) };
    }
  }
  const topScope = !isSetOp(top) ? scopeOf(top, names) : undefined;
  const outputNames = topScope ? planBlock(top, topScope, params).outputs.map((o) => o.name) : selectNames(top);

  const pushed: Pushed[] = [];
  const visitSelect = (select: Fields): void => {
    if (select.withClause) select.withClause = visit(select.withClause);
    if (isSetOp(select)) {
      visitSelect(select.larg as Fields);
      visitSelect(select.rarg as Fields);
      for (const key of ['sortClause', 'limitCount', 'limitOffset']) if (select[key]) select[key] = visit(select[key]);
      return;
    }
    const scope = scopeOf(select, names);
    if (!scope) {
      for (const [key, value] of Object.entries(select)) if (key !== 'withClause') select[key] = visit(value);
      return;
    }
    const plan = planBlock(select, scope, params);
    const table = `__plinth_${pushed.length + 1}`;
    pushed.push({ table, query: plan.query, items: plan.items });
    rewriteBlock(select, plan, scope, table, params);
  };
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isFields(node)) return node;
    const kind = kindOf(node);
    if (kind === 'ParamRef') return params.constant(Number(fieldsOf(node, 'ParamRef')!.number));
    if (kind === 'SelectStmt') {
      visitSelect(fieldsOf(node, 'SelectStmt')!);
      return node;
    }
    if (kind && kind in REFUSED_RANGES) throw notSupported(REFUSED_RANGES[kind]!);
    if (kind === 'RangeVar') {
      const range = fieldsOf(node, 'RangeVar')!;
      const relname = String(range.relname);
      if (range.schemaname === undefined && names.ctes.has(relname)) return node;
      if (!cubeOf(range, names))
        throw new SqlTranslationError('undefined_table', `Table ${relname} does not exist: no cube or view of that name`);
      return node;
    }
    for (const [key, value] of Object.entries(node)) node[key] = visit(value);
    return node;
  };
  visitSelect(top);
  return { kind: 'engine', pushed, statement, names: outputNames };
}
