import type { MetaCube } from '../meta.js';
import { findTable, type CatalogMember, type CatalogTable } from './catalog.js';
import { notSupported, SqlTranslationError } from './errors.js';
import { fieldsOf, isFields, kindOf, listOf, namesOf, type Fields } from './pg-ast.js';

/** The virtual column of every cube table whose equality joins two cubes as the model joins them. */
export const JOIN_FIELD = '__cubejoinfield';

/** A cube or view of a FROM clause and the names its columns may be qualified with (its name, its alias). */
export interface ScopeTable {
  table: CatalogTable;
  qualifiers: ReadonlySet<string>;
}

/** The cubes and views a SELECT reads, joined as the model joins them. */
export interface Scope {
  tables: readonly ScopeTable[];
}

/** What names mean in one statement: the caller's cubes and views, and the statement's CTE names, which shadow them. */
export interface Names {
  cubes: readonly MetaCube[];
  ctes: ReadonlySet<string>;
}

/** The cube or view a RangeVar names, or undefined for a CTE or an unknown name. */
export function cubeOf(range: Fields, names: Names): CatalogTable | undefined {
  const relname = String(range.relname ?? '');
  if (range.schemaname === undefined && names.ctes.has(relname)) return undefined;
  const table = findTable(names.cubes, relname);
  if (table && range.schemaname !== undefined && String(range.schemaname) !== 'public') {
    throw new SqlTranslationError(
      'invalid_schema_name',
      `Schema ${String(range.schemaname)} does not exist: cubes and views are in public`,
    );
  }
  return table;
}

/** Every RangeVar of a FROM clause, through joins, with the joins' conditions. */
function rangesOf(from: unknown[], joins: Fields[]): Fields[] {
  return from.flatMap((item): Fields[] => {
    const join = fieldsOf(item, 'JoinExpr');
    if (join) {
      joins.push(join);
      return rangesOf([join.larg, join.rarg], joins);
    }
    const range = fieldsOf(item, 'RangeVar');
    return range ? [range] : [{ notRange: kindOf(item) ?? 'unknown' }];
  });
}

const isJoinField = (node: unknown) => {
  const names = namesOf(fieldsOf(node, 'ColumnRef')?.fields);
  return names.length > 0 && names[names.length - 1]!.toLowerCase() === JOIN_FIELD;
};

/** A join condition Cube accepts: `a.__cubeJoinField = b.__cubeJoinField`, possibly ANDed. */
function checkJoin(join: Fields): void {
  if (join.isNatural || join.usingClause)
    throw notSupported('NATURAL and USING joins are not supported: join cubes with CROSS JOIN or ON a.__cubeJoinField = b.__cubeJoinField');
  if (join.jointype !== 'JOIN_INNER' && join.jointype !== 'JOIN_LEFT') {
    throw notSupported(
      `${String(join.jointype).replace('JOIN_', '')} JOIN is not supported: cubes join as the model joins them (CROSS JOIN or ON __cubeJoinField)`,
    );
  }
  const conditions = (quals: unknown): unknown[] => {
    const and = fieldsOf(quals, 'BoolExpr');
    return and?.boolop === 'AND_EXPR' ? listOf(and.args).flatMap(conditions) : quals === undefined ? [] : [quals];
  };
  for (const condition of conditions(join.quals)) {
    const eq = fieldsOf(condition, 'A_Expr');
    if (!eq || eq.kind !== 'AEXPR_OP' || namesOf(eq.name)[0] !== '=' || !isJoinField(eq.lexpr) || !isJoinField(eq.rexpr)) {
      throw notSupported('JOIN ... ON takes only a.__cubeJoinField = b.__cubeJoinField: cubes join as the model joins them');
    }
  }
}

/**
 * The scope of a SELECT whose FROM reads cubes or views, or undefined when it reads none (a query
 * over CTEs, subqueries or no table, which the post-processing engine answers).
 */
export function scopeOf(select: Fields, names: Names): Scope | undefined {
  const joins: Fields[] = [];
  const ranges = rangesOf(listOf(select.fromClause), joins);
  const tables = ranges.map((range) => (range.notRange ? undefined : cubeOf(range, names)));
  if (tables.every((t) => t === undefined)) return undefined;
  const other = ranges.find((_, i) => tables[i] === undefined);
  if (other) {
    const what = other.notRange ? `a ${String(other.notRange)}` : `${String(other.relname)}, which is no cube or view`;
    throw notSupported(`A query over cubes cannot also read ${what}: join cubes with cubes, or query the cubes in a subquery`);
  }
  joins.forEach(checkJoin);
  return {
    tables: ranges.map((range, i) => {
      if (range.tablesample) throw notSupported('TABLESAMPLE is not supported');
      const alias = isFields(range.alias) ? range.alias : undefined;
      if (alias && listOf(alias.colnames).length > 0) throw notSupported('Column aliases in FROM are not supported over a cube');
      const table = tables[i]!;
      const qualifiers = [table.name, String(range.relname), ...(typeof alias?.aliasname === 'string' ? [alias.aliasname] : [])];
      return { table, qualifiers: new Set(qualifiers.map((q) => q.toLowerCase())) };
    }),
  };
}

const memberIn = (table: CatalogTable, name: string) =>
  table.members.get(name) ?? [...table.members.entries()].find(([short]) => short.toLowerCase() === name.toLowerCase())?.[1];

/** The member a column reference (`col`, `t.col`, `public.t.col`) names. */
export function columnMember(ref: Fields, scope: Scope): CatalogMember {
  const names = namesOf(ref.fields);
  if (names.includes('*')) throw notSupported('SELECT * is not supported over a cube: name the columns');
  const name = names[names.length - 1]!;
  const qualifier = names.length > 1 ? names[names.length - 2]! : undefined;
  const candidates = qualifier === undefined ? scope.tables : scope.tables.filter((t) => t.qualifiers.has(qualifier.toLowerCase()));
  if (candidates.length === 0) {
    const known = scope.tables.map((t) => t.table.name).join(', ');
    throw new SqlTranslationError('undefined_table', `Unknown table ${qualifier} in ${qualifier}.${name}: FROM reads ${known}`);
  }
  if (name.toLowerCase() === JOIN_FIELD)
    throw notSupported('__cubeJoinField is only for joining cubes: ON a.__cubeJoinField = b.__cubeJoinField');
  const found = candidates.flatMap((t) => {
    const member = memberIn(t.table, name);
    return member ? [member] : [];
  });
  if (found.length > 1)
    throw new SqlTranslationError('ambiguous_column', `Column reference ${name} is ambiguous: qualify it with its table`);
  if (found.length === 0) {
    const where = candidates.map((t) => t.table.name).join(' or ');
    throw new SqlTranslationError('undefined_column', `Column ${name} does not exist in ${where}`);
  }
  return found[0]!;
}
