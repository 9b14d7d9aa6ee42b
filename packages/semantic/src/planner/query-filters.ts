import { QueryError } from '../errors.js';
import { OPERATORS, type Filter, type FilterValue, type Operator } from './query.js';

/** Cube's other names for operators this engine implements. */
const OPERATOR_ALIASES: Readonly<Record<string, Operator>> = { in: 'equals', notIn: 'notEquals', onTheDate: 'inDateRange' };

const MEMBER_FILTER_KEYS = new Set(['member', 'dimension', 'operator', 'values']);

/** The operators Cube lets go without values. */
const WITHOUT_VALUES = new Set(['set', 'notSet', 'measureFilter']);

/** Checks one entry of `filters` (a member filter or an `and`/`or` group) and returns it in canonical form. */
export function checkFilter(input: unknown): Filter {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new QueryError('Each filter must be an object');
  const filter = input as Record<string, unknown>;
  const group = (['and', 'or'] as const).filter((key) => filter[key] !== undefined);
  if (group.length > 1) throw new QueryError('A filter group takes either "and" or "or", not both');
  const [groupKey] = group;
  if (groupKey) {
    for (const key of Object.keys(filter))
      if (key !== groupKey) throw new QueryError(`"${key}" is not allowed in an "${groupKey}" filter group`);
    const children = filter[groupKey];
    if (!Array.isArray(children)) throw new QueryError(`"${groupKey}" must be an array of filters`);
    return { [groupKey]: children.map(checkFilter) } as Filter;
  }
  for (const key of Object.keys(filter)) if (!MEMBER_FILTER_KEYS.has(key)) throw new QueryError(`"${key}" is not allowed in a filter`);
  if (filter['member'] !== undefined && filter['dimension'] !== undefined)
    throw new QueryError('A filter takes "member" or "dimension", not both');
  const member = filter['member'] ?? filter['dimension'];
  if (typeof member !== 'string') throw new QueryError('A filter needs "member"');
  const named = filter['operator'];
  const operator = typeof named === 'string' ? (OPERATOR_ALIASES[named] ?? named) : named;
  if (typeof operator !== 'string' || !(OPERATORS as readonly string[]).includes(operator)) {
    throw new QueryError(`Unknown filter operator '${String(named)}' for ${member}`);
  }
  const values = filter['values'];
  if (
    values !== undefined &&
    !(Array.isArray(values) && values.every((value) => value === null || ['string', 'number', 'boolean'].includes(typeof value)))
  ) {
    throw new QueryError(`"values" of the filter on ${member} must be an array of strings, numbers or booleans`);
  }
  // Cube's gateway refuses a filter without values, or with an empty list, for every operator but these
  // three, before any SQL is written; its SQL planner would fail on `equals: []` anyway. (Row-level
  // policies do not come through here: an empty attribute list there still shows no rows.)
  if (!WITHOUT_VALUES.has(operator) && (values === undefined || (values as unknown[]).length === 0)) {
    throw new QueryError(`Values required for filter: ${JSON.stringify(input)}`);
  }
  return { member, operator: operator as Operator, ...(values !== undefined ? { values: values as FilterValue[] } : {}) };
}
