import type { Dialect } from '../dialects/dialect.js';
import type { Caller, DataModel } from '../model.js';
import type { Annotation } from './annotation.js';
import { buildLogicalQuery, type LogicalQuery } from './logical.js';
import { EVERYONE } from './policy.js';
import { normalizeQuery, type NormalizedQuery, type Query } from './query.js';
import { Params, Renderer } from './render.js';
import { renderQuery } from './render-query.js';
import { describeResult, type ResultColumn } from './result-shape.js';

export type { ResultColumn } from './result-shape.js';

export interface PlanOptions {
  readonly dialect: Dialect;
  readonly caller?: Caller;
  /** The instant relative date ranges are computed from; defaults to now. */
  readonly now?: Date;
}

export interface QueryPlan {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** `SELECT count(*)` over the same rows without limit and offset, when the query asked for `total`. */
  readonly total?: { readonly sql: string; readonly params: readonly unknown[] };
  readonly annotation: Annotation;
  readonly columns: readonly ResultColumn[];
  readonly query: NormalizedQuery;
}

/** Cube query in, SQL and bound parameters out. Throws QueryError for anything the caller got wrong. */
export function planQuery(model: DataModel, input: Query | unknown, options: PlanOptions): QueryPlan {
  const logical = buildLogicalQuery(model, normalizeQuery(input), { caller: options.caller ?? EVERYONE, now: options.now ?? new Date() });
  return planLogicalQuery(logical, options.dialect);
}

/** Renders a logical query for one warehouse. */
export function planLogicalQuery(logical: LogicalQuery, dialect: Dialect): QueryPlan {
  const renderer = new Renderer(logical.model, dialect, {
    caller: logical.caller,
    params: new Params(dialect),
    timezone: logical.timezone,
    filters: logical.query.filters,
  });
  const rendered = renderQuery(logical, renderer);
  const { columns, annotation } = describeResult(logical);
  return { ...rendered, annotation, columns, query: logical.query };
}
