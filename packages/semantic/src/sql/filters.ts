import type { Filter, Operator } from '../planner/query.js';
import type { CatalogMember } from './catalog.js';
import { notSupported, SqlTranslationError, syntaxError } from './errors.js';
import { describeNode, itemOf } from './items.js';
import { literalOf, type Params } from './literals.js';
import { fieldsOf, kindOf, listOf, namesOf, type Fields } from './pg-ast.js';
import { columnMember, type Scope } from './scope.js';
import { pgTypeOf } from './types.js';

type Clause = 'WHERE' | 'HAVING';

/** Comparison operators, for plain members and for time dimensions (which compare as dates). */
const COMPARISONS: Record<string, { plain: Operator; time: Operator }> = {
  '=': { plain: 'equals', time: 'equals' },
  '<>': { plain: 'notEquals', time: 'notEquals' },
  '!=': { plain: 'notEquals', time: 'notEquals' },
  '>': { plain: 'gt', time: 'afterDate' },
  '>=': { plain: 'gte', time: 'afterOrOnDate' },
  '<': { plain: 'lt', time: 'beforeDate' },
  '<=': { plain: 'lte', time: 'beforeOrOnDate' },
};
/** `5 < x` is `x > 5`. */
const FLIPPED: Record<string, string> = { '=': '=', '<>': '<>', '!=': '!=', '>': '<', '>=': '<=', '<': '>', '<=': '>=' };

/** What the translation needs to read a condition. */
export interface ConditionContext {
  scope: Scope;
  params: Params;
}

const isMemberSide = (node: unknown) => kindOf(node) === 'ColumnRef' || kindOf(node) === 'FuncCall';

/** The member a condition tests: a dimension in WHERE, a measure (`MEASURE(x)`, `SUM(x)`, ...) in HAVING. */
function memberOf(node: unknown, ctx: ConditionContext, clause: Clause): CatalogMember {
  if (clause === 'WHERE') {
    const ref = fieldsOf(node, 'ColumnRef');
    if (!ref) throw notSupported(`WHERE over a cube compares dimension columns; ${describeNode(node)} is not supported there`);
    const member = columnMember(ref, ctx.scope);
    if (member.kind === 'measure')
      throw new SqlTranslationError('grouping_error', `Measure ${member.name} cannot be filtered in WHERE: use HAVING MEASURE(...)`);
    if (member.kind === 'segment')
      throw notSupported(`Segment ${member.name} can only be used as a condition of its own (or = TRUE), joined by AND`);
    return member;
  }
  const item = itemOf(node, ctx.scope, ctx.params);
  if (!item) throw notSupported(`HAVING over a cube compares measures; ${describeNode(node)} is not supported there`);
  if (item.kind !== 'measure')
    throw new SqlTranslationError('grouping_error', `HAVING filters measures; ${item.member.name} is a dimension: filter it in WHERE`);
  return item.member;
}

function valueOf(node: unknown, member: CatalogMember, ctx: ConditionContext): string {
  const value = literalOf(node, ctx.params, pgTypeOf(member));
  if (value === null) throw notSupported('Comparing with NULL is never true: use IS NULL or IS NOT NULL');
  if (value === undefined) {
    if (kindOf(node) === 'SubLink') throw notSupported('Subqueries in the conditions of a query over a cube are not supported');
    throw notSupported(`Conditions over a cube compare a column with literal values; ${describeNode(node)} is not supported there`);
  }
  return value;
}

/** `LIKE 'x%'` and friends: only the patterns Cube's string operators express. */
function likeFilter(member: string, pattern: string, negated: boolean): Filter {
  const starts = pattern.startsWith('%');
  const ends = pattern.length > 1 && pattern.endsWith('%') && !pattern.endsWith('\\%');
  const inner = pattern.slice(starts ? 1 : 0, ends ? -1 : undefined);
  if (/(^|[^\\])[%_]/.test(inner)) {
    throw notSupported(`LIKE pattern '${pattern}' is not supported: only 'text%', '%text' and '%text%' (escape _ as \\_)`);
  }
  const text = inner.replace(/\\([%_\\])/g, '$1');
  // '%' alone matches every value that is not NULL.
  if (text === '' && (starts || ends)) return { member, operator: negated ? 'notSet' : 'set' };
  const kind = starts && ends ? 'contains' : starts ? 'endsWith' : ends ? 'startsWith' : 'equals';
  const operator = (negated ? `not${kind[0]!.toUpperCase()}${kind.slice(1)}` : kind) as Operator;
  return { member, operator, values: [text] };
}

function between(member: CatalogMember, range: unknown, negated: boolean, ctx: ConditionContext): Filter {
  const [from, to] = listOf(fieldsOf(range, 'List')?.items).map((v) => valueOf(v, member, ctx));
  if (from === undefined || to === undefined) throw syntaxError('BETWEEN takes two values');
  if (member.type === 'time') return { member: member.name, operator: negated ? 'notInDateRange' : 'inDateRange', values: [from, to] };
  if (!negated)
    return {
      and: [
        { member: member.name, operator: 'gte', values: [from] },
        { member: member.name, operator: 'lte', values: [to] },
      ],
    };
  return {
    or: [
      { member: member.name, operator: 'lt', values: [from] },
      { member: member.name, operator: 'gt', values: [to] },
    ],
  };
}

function comparison(expr: Fields, ctx: ConditionContext, clause: Clause): Filter {
  const operator = namesOf(expr.name)[0] ?? '';
  let left = expr.lexpr;
  let right = expr.rexpr;
  switch (expr.kind) {
    case 'AEXPR_OP': {
      const ops = COMPARISONS[operator];
      if (!ops) throw notSupported(`Operator ${operator} is not supported in ${clause} over a cube`);
      let op = operator;
      if (!isMemberSide(left) && isMemberSide(right)) [left, right, op] = [right, left, FLIPPED[operator]!];
      const member = memberOf(left, ctx, clause);
      const chosen = COMPARISONS[op]!;
      return { member: member.name, operator: member.type === 'time' ? chosen.time : chosen.plain, values: [valueOf(right, member, ctx)] };
    }
    case 'AEXPR_IN': {
      const member = memberOf(left, ctx, clause);
      const values = listOf(fieldsOf(right, 'List')?.items ?? right).map((v) => valueOf(v, member, ctx));
      return { member: member.name, operator: operator === '=' ? 'equals' : 'notEquals', values };
    }
    case 'AEXPR_LIKE':
    case 'AEXPR_ILIKE': {
      const member = memberOf(left, ctx, clause);
      return likeFilter(member.name, valueOf(right, member, ctx), operator.startsWith('!'));
    }
    case 'AEXPR_BETWEEN':
    case 'AEXPR_NOT_BETWEEN':
      return between(memberOf(left, ctx, clause), right, expr.kind === 'AEXPR_NOT_BETWEEN', ctx);
    default:
      throw notSupported(`${String(expr.kind).replace('AEXPR_', '')} is not supported in ${clause} over a cube`);
  }
}

/** One condition as a Cube filter; AND and OR nest as Cube's `{and}` and `{or}`. */
function filterOf(node: unknown, ctx: ConditionContext, clause: Clause): Filter {
  const bool = fieldsOf(node, 'BoolExpr');
  if (bool) {
    if (bool.boolop === 'NOT_EXPR') throw notSupported('NOT (...) is not supported over a cube: negate the comparison itself');
    const parts = listOf(bool.args).map((part) => filterOf(part, ctx, clause));
    return bool.boolop === 'AND_EXPR' ? { and: parts } : { or: parts };
  }
  const expr = fieldsOf(node, 'A_Expr');
  if (expr) return comparison(expr, ctx, clause);
  const test = fieldsOf(node, 'NullTest');
  if (test) {
    const member = memberOf(test.arg, ctx, clause);
    return { member: member.name, operator: test.nulltesttype === 'IS_NOT_NULL' ? 'set' : 'notSet' };
  }
  if (kindOf(node) === 'ColumnRef' && clause === 'WHERE') {
    const member = memberOf(node, ctx, clause);
    if (member.type === 'boolean') return { member: member.name, operator: 'equals', values: ['true'] };
  }
  if (kindOf(node) === 'SubLink') throw notSupported('Subqueries in the conditions of a query over a cube are not supported');
  throw notSupported(`${describeNode(node)} is not a supported condition in ${clause} over a cube`);
}

/** A segment used as a condition: `completed`, `completed = TRUE`, `completed IS TRUE`. */
function segmentOf(node: unknown, scope: Scope): string | undefined {
  let column = node;
  const expr = fieldsOf(node, 'A_Expr');
  const test = fieldsOf(node, 'BooleanTest');
  if (expr) {
    const c = fieldsOf(expr.rexpr, 'A_Const');
    if (expr.kind !== 'AEXPR_OP' || namesOf(expr.name)[0] !== '=' || (c?.boolval as Fields | undefined)?.boolval !== true) return undefined;
    column = expr.lexpr;
  } else if (test) {
    if (test.booltesttype !== 'IS_TRUE') return undefined;
    column = test.arg;
  }
  const ref = fieldsOf(column, 'ColumnRef');
  if (!ref) return undefined;
  const member = columnMember(ref, scope);
  return member.kind === 'segment' ? member.name : undefined;
}

const conjuncts = (node: unknown): unknown[] => {
  const bool = fieldsOf(node, 'BoolExpr');
  return bool?.boolop === 'AND_EXPR' ? listOf(bool.args).flatMap(conjuncts) : [node];
};

/** A WHERE or HAVING condition as Cube filters and (WHERE only) segments; top-level ANDs are separate filters. */
export function conditionOf(node: unknown, ctx: ConditionContext, clause: Clause): { filters: Filter[]; segments: string[] } {
  const filters: Filter[] = [];
  const segments: string[] = [];
  for (const part of conjuncts(node)) {
    const segment = clause === 'WHERE' ? segmentOf(part, ctx.scope) : undefined;
    if (segment) segments.push(segment);
    else filters.push(filterOf(part, ctx, clause));
  }
  return { filters, segments };
}
