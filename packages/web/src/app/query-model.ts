import type { CubeQuery } from '../lib/data-api';

/** `/cubejs-api/v1/meta` as the builder reads it: the views (else cubes) and members this user may see. */
export interface MetaMember {
  name: string;
  title: string;
  shortTitle: string;
  type: string;
}
export interface MetaCube {
  name: string;
  title: string;
  type: 'cube' | 'view';
  measures: MetaMember[];
  dimensions: MetaMember[];
}

export const GRANULARITIES = ['day', 'week', 'month', 'quarter', 'year'] as const;
/** The filter operators the builder offers, with words a person reads; `set` and `notSet` take no values. */
export const OPERATORS = [
  ['equals', 'is'],
  ['notEquals', 'is not'],
  ['contains', 'contains'],
  ['gt', 'greater than'],
  ['lt', 'less than'],
  ['set', 'is set'],
  ['notSet', 'is not set'],
] as const;
export type Operator = (typeof OPERATORS)[number][0];
export const takesValues = (operator: Operator) => operator !== 'set' && operator !== 'notSet';

export interface BuilderFilter {
  member: string;
  operator: Operator;
  /** Comma-separated, as typed. */
  values: string;
}

/** What the builder's controls hold; `query` turns it into the report's Cube query. */
export interface BuilderState {
  view: string;
  measures: string[];
  dimensions: string[];
  timeDimension: string;
  granularity: string;
  filters: BuilderFilter[];
}

export const emptyState = (view = ''): BuilderState => ({
  view,
  measures: [],
  dimensions: [],
  timeDimension: '',
  granularity: 'month',
  filters: [],
});

/** The views the user may query; a model without views offers its cubes. */
export function queryables(cubes: MetaCube[]): MetaCube[] {
  const views = cubes.filter((c) => c.type === 'view');
  return views.length > 0 ? views : cubes;
}

export function toQuery(state: BuilderState): CubeQuery {
  const query: CubeQuery = {};
  if (state.measures.length) query.measures = [...state.measures];
  if (state.dimensions.length) query.dimensions = [...state.dimensions];
  if (state.timeDimension) query.timeDimensions = [{ dimension: state.timeDimension, granularity: state.granularity || 'month' }];
  const filters = state.filters
    .filter((f) => f.member && (!takesValues(f.operator) || f.values.trim()))
    .map((f) =>
      takesValues(f.operator)
        ? {
            member: f.member,
            operator: f.operator,
            values: f.values
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean),
          }
        : { member: f.member, operator: f.operator },
    );
  if (filters.length) query.filters = filters;
  return query;
}

const isOperator = (value: unknown): value is Operator => OPERATORS.some(([op]) => op === value);

/** A saved report's query back in the builder; the view is that of its first member. */
export function fromQuery(query: CubeQuery): BuilderState {
  const time = query.timeDimensions?.[0];
  const filters: BuilderFilter[] = [];
  for (const f of query.filters ?? []) {
    const filter = f as { member?: unknown; operator?: unknown; values?: unknown };
    if (typeof filter.member !== 'string' || !isOperator(filter.operator)) continue;
    const values = Array.isArray(filter.values) ? filter.values.map(String).join(', ') : '';
    filters.push({ member: filter.member, operator: filter.operator, values });
  }
  const first = query.measures?.[0] ?? query.dimensions?.[0] ?? time?.dimension ?? '';
  return {
    view: first.split('.')[0] ?? '',
    measures: query.measures ?? [],
    dimensions: query.dimensions ?? [],
    timeDimension: time?.dimension ?? '',
    granularity: time?.granularity ?? 'month',
    filters,
  };
}

/** Whether the query can run: a measure, or a dimension to list. */
export const runnable = (state: BuilderState) => state.measures.length + state.dimensions.length > 0 || state.timeDimension !== '';
