import type { Granularity } from '../planner/query.js';
import type { CatalogMember } from './catalog.js';
import { mismatch, notSupported, SqlTranslationError, syntaxError } from './errors.js';
import { literalOf, type Params } from './literals.js';
import { fieldsOf, functionNameOf, kindOf, listOf, type Fields } from './pg-ast.js';
import { columnMember, type Scope } from './scope.js';
import { PG_TYPES } from './types.js';

/** A member as a query uses it: a dimension, a time dimension at a granularity, or a measure. */
export type Item =
  | { kind: 'dimension'; member: CatalogMember; key: string }
  | { kind: 'time'; member: CatalogMember; granularity: Granularity; key: string }
  | { kind: 'measure'; member: CatalogMember; key: string };

const GRANULARITIES: ReadonlySet<string> = new Set(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);

/**
 * `SUM(x)` and friends name a measure whose own aggregation is that function; a sum of a count
 * adds counts up, as Cube's SQL API reads it.
 */
const AGGREGATES: Record<string, readonly string[]> = {
  sum: ['sum', 'count', 'runningTotal'],
  avg: ['avg'],
  min: ['min'],
  max: ['max'],
  count: ['count'],
  'count distinct': ['count_distinct', 'count_distinct_approx'],
};

function measureArgument(node: unknown, scope: Scope, call: string): CatalogMember {
  const ref = fieldsOf(node, 'ColumnRef');
  if (!ref) throw mismatch(`${call} takes a measure column, not ${describeNode(node)}`);
  const member = columnMember(ref, scope);
  if (member.kind !== 'measure') throw mismatch(`${call} takes a measure, but ${member.name} is a ${member.kind}`);
  return member;
}

/** `COUNT(*)`: the count measure of the first table of FROM, the one named `count` first. */
function countStar(scope: Scope): CatalogMember {
  const table = scope.tables[0]!.table;
  const counts = [...table.members.values()].filter((m) => m.kind === 'measure' && m.aggType === 'count');
  const member = counts.find((m) => m.name === `${table.name}.count`) ?? counts[0];
  if (!member) throw new SqlTranslationError('undefined_column', `COUNT(*) needs a count measure, and ${table.name} has none`);
  return member;
}

function aggregate(call: Fields, name: string, scope: Scope): Item {
  if (call.agg_filter) throw notSupported('FILTER (WHERE ...) on an aggregate is not supported over a cube: filter in WHERE');
  if (call.agg_order || call.agg_within_group) throw notSupported(`ORDER BY inside ${name.toUpperCase()}(...) is not supported`);
  const args = listOf(call.args);
  const one = args.length === 1 ? args[0] : undefined;
  const c = fieldsOf(one, 'A_Const');
  if (name === 'count' && !call.agg_distinct && (call.agg_star || (c && (c.ival as Fields | undefined)?.ival === 1))) {
    const member = countStar(scope);
    return { kind: 'measure', member, key: member.name };
  }
  const label = `${name.toUpperCase()}${call.agg_distinct ? ' DISTINCT' : ''}`;
  const accepted = AGGREGATES[`${name}${call.agg_distinct ? ' distinct' : ''}`]!;
  if (args.length !== 1) throw syntaxError(`${label} takes one measure column`);
  const member = measureArgument(one, scope, label);
  if (!accepted.includes(member.aggType ?? '')) {
    throw mismatch(
      `${label}(${member.name}) does not match the measure's type ${member.aggType ?? member.type}: use MEASURE(${member.name})`,
    );
  }
  return { kind: 'measure', member, key: member.name };
}

function dateTrunc(call: Fields, scope: Scope, params: Params): Item {
  const [unitNode, column, ...rest] = listOf(call.args);
  const unit = unitNode ? literalOf(unitNode, params, PG_TYPES.text)?.toLowerCase() : undefined;
  const ref = fieldsOf(column, 'ColumnRef');
  if (!unit || !ref || rest.length > 0)
    throw syntaxError("DATE_TRUNC takes a granularity and a time dimension: DATE_TRUNC('month', created_at)");
  if (!GRANULARITIES.has(unit)) {
    throw new SqlTranslationError(
      'invalid_parameter_value',
      `DATE_TRUNC granularity ${unit} is not one of ${[...GRANULARITIES].join(', ')}`,
    );
  }
  const member = columnMember(ref, scope);
  if (member.kind !== 'dimension' || member.type !== 'time')
    throw mismatch(`DATE_TRUNC takes a time dimension, and ${member.name} is not one`);
  return { kind: 'time', member, granularity: unit as Granularity, key: `${member.name}.${unit}` };
}

/**
 * The member an expression over a cube stands for: a dimension column, `DATE_TRUNC('unit', time)`,
 * `MEASURE(m)` or an aggregate matching the measure's type; undefined for any other expression,
 * which post-processing computes from the items inside it.
 */
export function itemOf(node: unknown, scope: Scope, params: Params): Item | undefined {
  const ref = fieldsOf(node, 'ColumnRef');
  if (ref) {
    const member = columnMember(ref, scope);
    if (member.kind === 'measure') {
      const short = member.name.slice(member.name.indexOf('.') + 1);
      throw new SqlTranslationError('grouping_error', `Measure ${member.name} must be selected as MEASURE(${short}) or aggregated`);
    }
    if (member.kind === 'segment') throw mismatch(`Segment ${member.name} can only be used as a WHERE condition`);
    return { kind: 'dimension', member, key: member.name };
  }
  const call = fieldsOf(node, 'FuncCall');
  if (!call || call.over) return undefined;
  const name = functionNameOf(call);
  if (name === 'measure') {
    const args = listOf(call.args);
    if (args.length !== 1) throw syntaxError('MEASURE takes one measure column');
    const member = measureArgument(args[0], scope, 'MEASURE');
    return { kind: 'measure', member, key: member.name };
  }
  if (name === 'date_trunc') return dateTrunc(call, scope, params);
  if (name in AGGREGATES) return aggregate(call, name, scope);
  return undefined;
}

/** The column name Cube's SQL API gives an item selected without an alias. */
export function itemName(node: unknown, item: Item): string {
  const ref = fieldsOf(node, 'ColumnRef');
  if (ref) return lastName(ref);
  if (item.kind === 'time') return `date_trunc('${item.granularity}', ${item.member.name})`;
  const call = fieldsOf(node, 'FuncCall')!;
  const name = functionNameOf(call);
  if (name === 'measure') return `measure(${item.member.name})`;
  const args = listOf(call.args);
  const c = fieldsOf(args[0], 'A_Const');
  const argument = call.agg_star ? '*' : c ? String((c.ival as Fields | undefined)?.ival ?? 0) : item.member.name;
  return `${name}(${call.agg_distinct ? 'distinct ' : ''}${argument})`;
}

function lastName(ref: Fields): string {
  const fields = listOf(ref.fields);
  const last = fieldsOf(fields[fields.length - 1], 'String');
  return String(last?.sval ?? '');
}

/** A short name for a node in an error message. */
export function describeNode(node: unknown): string {
  const kind = kindOf(node);
  if (kind === 'FuncCall') return `function ${functionNameOf(fieldsOf(node, 'FuncCall')!).toUpperCase()}`;
  if (kind === 'ColumnRef') return `column ${lastName(fieldsOf(node, 'ColumnRef')!)}`;
  if (kind === 'A_Expr')
    return `operator ${String(
      listOf(fieldsOf(node, 'A_Expr')!.name)
        .map((n) => fieldsOf(n, 'String')?.sval)
        .join(' '),
    )}`;
  if (kind === 'SubLink') return 'a subquery';
  if (kind === 'ParamRef') return 'a parameter';
  if (kind === 'TypeCast') return 'a cast';
  if (kind === 'CaseExpr') return 'CASE';
  return `an expression (${kind ?? 'unknown'})`;
}
