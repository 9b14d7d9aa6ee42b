import type { Filter, Operator } from '../planner/query.js';
import { notSupported, SqlTranslationError, syntaxError } from './errors.js';
import { describe, functionName, isNode, literalValue, type Node } from './ast.js';
import { columnMember, itemOf, type Scope } from './columns.js';
import type { CatalogMember } from './catalog.js';

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

const isColumn = (node: Node) => node.type === 'column_ref' || node.type === 'function' || node.type === 'aggr_func';

/** The member a condition tests: a dimension in WHERE, a measure (`MEASURE(x)`, `SUM(x)`, ...) in HAVING. */
function memberOf(node: Node, scope: Scope, clause: Clause): CatalogMember {
  if (clause === 'WHERE') {
    if (node.type !== 'column_ref') throw notSupported(`WHERE compares dimension columns; ${describe(node)} is not supported there`);
    const member = columnMember(node, scope);
    if (member.kind === 'measure')
      throw new SqlTranslationError('grouping_error', `Measure ${member.name} cannot be filtered in WHERE: use HAVING MEASURE(...)`);
    if (member.kind === 'segment')
      throw notSupported(`Segment ${member.name} can only be used as a condition of its own (or = TRUE), joined by AND`);
    return member;
  }
  const item = itemOf(node, scope);
  if (item.kind !== 'measure')
    throw new SqlTranslationError('grouping_error', `HAVING filters measures; ${item.member.name} is a dimension: filter it in WHERE`);
  return item.member;
}

function valueOf(node: Node): string {
  if (node.type === 'null') throw notSupported('Comparing with NULL is never true: use IS NULL or IS NOT NULL');
  const value = literalValue(node);
  if (value === undefined) throw notSupported(`Conditions compare a column with literal values; ${describe(node)} is not supported there`);
  return value;
}

function valuesOf(node: Node): string[] {
  if (!Array.isArray(node.value) || node.type !== 'expr_list') throw notSupported('IN takes a list of literal values');
  const values = node.value as Node[];
  if (values.some((v) => isNode(v.ast))) throw notSupported('Subqueries are not supported');
  return values.map(valueOf);
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

function comparison(node: Node, scope: Scope, clause: Clause): Filter {
  const operator = String(node.operator).toUpperCase();
  let left = node.left as Node;
  let right = node.right as Node;
  if (operator in COMPARISONS) {
    let op = operator;
    if (!isColumn(left) && isColumn(right)) [left, right, op] = [right, left, FLIPPED[operator]!];
    const member = memberOf(left, scope, clause);
    const ops = COMPARISONS[op]!;
    return { member: member.name, operator: member.type === 'time' ? ops.time : ops.plain, values: [valueOf(right)] };
  }
  const member = memberOf(left, scope, clause);
  switch (operator) {
    case 'IN':
    case 'NOT IN':
      return { member: member.name, operator: operator === 'IN' ? 'equals' : 'notEquals', values: valuesOf(right) };
    case 'IS':
    case 'IS NOT':
      if (right.type !== 'null') throw notSupported(`${operator} is supported only with NULL`);
      return { member: member.name, operator: operator === 'IS' ? 'notSet' : 'set' };
    case 'LIKE':
    case 'ILIKE':
    case 'NOT LIKE':
    case 'NOT ILIKE':
      return likeFilter(member.name, valueOf(right), operator.startsWith('NOT'));
    case 'BETWEEN':
    case 'NOT BETWEEN': {
      const [from, to] = valuesOf(right);
      if (from === undefined || to === undefined) throw syntaxError(`${operator} takes two values`);
      if (member.type === 'time')
        return { member: member.name, operator: operator === 'BETWEEN' ? 'inDateRange' : 'notInDateRange', values: [from, to] };
      if (operator === 'BETWEEN') {
        return {
          and: [
            { member: member.name, operator: 'gte', values: [from] },
            { member: member.name, operator: 'lte', values: [to] },
          ],
        };
      }
      return {
        or: [
          { member: member.name, operator: 'lt', values: [from] },
          { member: member.name, operator: 'gt', values: [to] },
        ],
      };
    }
    default:
      throw notSupported(`Operator ${operator} is not supported in ${clause}`);
  }
}

/** One condition as a Cube filter; AND and OR nest as Cube's `{and}` and `{or}`. */
function filterOf(node: Node, scope: Scope, clause: Clause): Filter {
  if (node.type === 'binary_expr') {
    const operator = String(node.operator).toUpperCase();
    if (operator === 'AND' || operator === 'OR') {
      const parts = [node.left as Node, node.right as Node].map((part) => filterOf(part, scope, clause));
      return operator === 'AND' ? { and: parts } : { or: parts };
    }
    return comparison(node, scope, clause);
  }
  if (node.type === 'column_ref' && clause === 'WHERE') {
    const member = memberOf(node, scope, clause);
    if (member.type === 'boolean') return { member: member.name, operator: 'equals', values: ['true'] };
  }
  if (node.type === 'function' && functionName(node) === 'NOT')
    throw notSupported('NOT (...) is not supported: negate the comparison itself');
  throw notSupported(`${describe(node)} is not a supported condition in ${clause}`);
}

/** A segment used as a condition: `completed`, `completed = TRUE`, `completed IS TRUE`. */
function segmentOf(node: Node, scope: Scope): string | undefined {
  let column = node;
  if (node.type === 'binary_expr') {
    const right = node.right as Node;
    const isTrue = ['=', 'IS'].includes(String(node.operator).toUpperCase()) && right.type === 'bool' && right.value === true;
    if (!isTrue) return undefined;
    column = node.left as Node;
  }
  if (column.type !== 'column_ref') return undefined;
  const member = columnMember(column, scope);
  return member.kind === 'segment' ? member.name : undefined;
}

const conjuncts = (node: Node): Node[] =>
  node.type === 'binary_expr' && String(node.operator).toUpperCase() === 'AND'
    ? [...conjuncts(node.left as Node), ...conjuncts(node.right as Node)]
    : [node];

/** A WHERE or HAVING condition as Cube filters and (WHERE only) segments; top-level ANDs are separate filters. */
export function conditionOf(node: Node, scope: Scope, clause: Clause): { filters: Filter[]; segments: string[] } {
  const filters: Filter[] = [];
  const segments: string[] = [];
  for (const part of conjuncts(node)) {
    const segment = clause === 'WHERE' ? segmentOf(part, scope) : undefined;
    if (segment) segments.push(segment);
    else filters.push(filterOf(part, scope, clause));
  }
  return { filters, segments };
}
