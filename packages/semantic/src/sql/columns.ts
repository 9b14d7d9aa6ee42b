import type { Granularity } from '../planner/query.js';
import { mismatch, notSupported, SqlTranslationError, syntaxError } from './errors.js';
import { describe, functionArgs, functionName, identifier, isNode, literalValue, type Node } from './ast.js';
import type { CatalogMember, CatalogTable } from './catalog.js';

/** What a SELECT, GROUP BY or ORDER BY expression means in Cube's query format. */
export type Item =
  | { kind: 'dimension'; member: CatalogMember; key: string }
  | { kind: 'time'; member: CatalogMember; granularity: Granularity; key: string }
  | { kind: 'measure'; member: CatalogMember; key: string };

/** The FROM table and the names its columns may be qualified with (its name and alias). */
export interface Scope {
  table: CatalogTable;
  qualifiers: ReadonlySet<string>;
}

const GRANULARITIES: ReadonlySet<string> = new Set(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);

/** `SUM(x)` and friends name a measure whose own aggregation is that function. */
const AGGREGATES: Record<string, readonly string[]> = {
  SUM: ['sum'],
  AVG: ['avg'],
  MIN: ['min'],
  MAX: ['max'],
  COUNT: ['count'],
  'COUNT DISTINCT': ['count_distinct', 'count_distinct_approx'],
};

/** The member a column reference names, its qualifier being the table's name or alias. */
export function columnMember(node: Node, scope: Scope): CatalogMember {
  if (node.column === '*') throw notSupported('SELECT * is not supported: name the columns');
  if (node.collate) throw notSupported('COLLATE is not supported');
  const name = identifier(node.column);
  if (node.table !== null && node.table !== undefined) {
    // The parser drops the quotes of a qualifier, so qualifiers compare regardless of case.
    const qualifier = identifier(node.table);
    if (!scope.qualifiers.has(qualifier.toLowerCase())) {
      throw new SqlTranslationError(
        'undefined_table',
        `Unknown table ${qualifier} in ${qualifier}.${name}: only ${scope.table.name} is in FROM (joins are not supported)`,
      );
    }
  }
  const member = scope.table.members.get(name);
  if (!member) throw new SqlTranslationError('undefined_column', `Column ${name} does not exist in ${scope.table.name}`);
  return member;
}

/** The column of `MEASURE(x)` or an aggregate function, which must name a measure. */
function measureArgument(node: Node, scope: Scope, call: string): CatalogMember {
  if (node.type !== 'column_ref') throw mismatch(`${call} takes a measure column, not ${describe(node)}`);
  const member = columnMember(node, scope);
  if (member.kind !== 'measure') throw mismatch(`${call} takes a measure, but ${member.name} is a ${member.kind}`);
  return member;
}

/** `COUNT(*)`: the table's count measure, the one named `count` first. */
function countStar(scope: Scope): CatalogMember {
  const counts = [...scope.table.members.values()].filter((m) => m.kind === 'measure' && m.aggType === 'count');
  const member = counts.find((m) => m.name === `${scope.table.name}.count`) ?? counts[0];
  if (!member) throw new SqlTranslationError('undefined_column', `COUNT(*) needs a count measure, and ${scope.table.name} has none`);
  return member;
}

function aggregate(node: Node, scope: Scope): Item {
  if (node.over !== null && node.over !== undefined) throw notSupported('Window functions (OVER) are not supported');
  if (node.filter) throw notSupported('FILTER (WHERE ...) on an aggregate is not supported: filter in WHERE');
  const args = isNode(node.args) ? node.args : {};
  const distinct = typeof args.distinct === 'string' && args.distinct !== '';
  const name = `${functionName(node)}${distinct ? ' DISTINCT' : ''}`;
  const accepted = AGGREGATES[name];
  if (!accepted) throw notSupported(`Aggregate function ${name} is not supported: use MEASURE(measure)`);
  const expr = isNode(args.expr) ? args.expr : {};
  // COUNT(*) and COUNT(1) count rows: the table's count measure.
  if (name === 'COUNT' && (expr.type === 'star' || (expr.type === 'number' && expr.value === 1))) {
    const member = countStar(scope);
    return { kind: 'measure', member, key: member.name };
  }
  const member = measureArgument(expr, scope, name);
  if (!accepted.includes(member.aggType ?? '')) {
    throw mismatch(
      `${name}(${member.name}) does not match the measure's type ${member.aggType ?? member.type}: use MEASURE(${member.name})`,
    );
  }
  return { kind: 'measure', member, key: member.name };
}

function dateTrunc(node: Node, scope: Scope): Item {
  const [unitNode, column, ...rest] = functionArgs(node);
  const unit = unitNode ? literalValue(unitNode)?.toLowerCase() : undefined;
  if (!unit || !column || rest.length > 0 || column.type !== 'column_ref') {
    throw syntaxError("DATE_TRUNC takes a granularity and a time dimension: DATE_TRUNC('month', created_at)");
  }
  if (!GRANULARITIES.has(unit))
    throw new SqlTranslationError(
      'invalid_parameter_value',
      `DATE_TRUNC granularity ${unit} is not one of ${[...GRANULARITIES].join(', ')}`,
    );
  const member = columnMember(column, scope);
  if (member.kind !== 'dimension' || member.type !== 'time')
    throw mismatch(`DATE_TRUNC takes a time dimension, and ${member.name} is not one`);
  return { kind: 'time', member, granularity: unit as Granularity, key: `${member.name}.${unit}` };
}

/**
 * An expression of the select list (or of GROUP BY, ORDER BY, HAVING): a dimension column,
 * `DATE_TRUNC('unit', time)`, `MEASURE(m)`, or an aggregate function matching the measure's type.
 */
export function itemOf(node: Node, scope: Scope): Item {
  if (node.type === 'column_ref') {
    const member = columnMember(node, scope);
    if (member.kind === 'measure')
      throw new SqlTranslationError('grouping_error', `Measure ${member.name} must be selected as MEASURE(${identifier(node.column)})`);
    if (member.kind === 'segment') throw mismatch(`Segment ${member.name} can only be used as a WHERE condition`);
    return { kind: 'dimension', member, key: member.name };
  }
  if (node.type === 'aggr_func') return aggregate(node, scope);
  if (node.type === 'function') {
    const name = functionName(node);
    if (isNode(node.over)) throw notSupported('Window functions (OVER) are not supported');
    if (name === 'MEASURE') {
      const args = functionArgs(node);
      if (args.length !== 1) throw syntaxError('MEASURE takes one measure column');
      const member = measureArgument(args[0]!, scope, 'MEASURE');
      return { kind: 'measure', member, key: member.name };
    }
    if (name === 'DATE_TRUNC') return dateTrunc(node, scope);
    throw notSupported(
      `Function ${name} is not supported: columns are dimensions, MEASURE(measure), aggregates of measures and DATE_TRUNC`,
    );
  }
  if (node.type === 'star') throw notSupported('SELECT * is not supported: name the columns');
  if (isNode(node.ast)) throw notSupported('Subqueries are not supported');
  throw notSupported(`${describe(node)[0]!.toUpperCase()}${describe(node).slice(1)} is not supported here`);
}

/** The column name an item gets without an alias. */
export function defaultName(node: Node, item: Item): string {
  if (node.type === 'column_ref') return identifier(node.column);
  if (item.kind === 'time') return `date_trunc('${item.granularity}', ${item.member.name})`;
  if (node.type === 'aggr_func') {
    const args = isNode(node.args) ? node.args : {};
    const expr = isNode(args.expr) ? args.expr : {};
    const argument = expr.type === 'star' ? '*' : expr.type === 'number' ? String(expr.value) : item.member.name;
    return `${functionName(node).toLowerCase()}(${args.distinct ? 'distinct ' : ''}${argument})`;
  }
  return `measure(${item.member.name})`;
}
