import type { Dialect } from '../dialects/dialect.js';
import { QueryError } from '../errors.js';
import type { Caller, Cube, DataModel, Dimension, Measure, Member, Segment, SqlTemplate } from '../model.js';
import { renderContextRef } from './context-sql.js';
import { cubeNamed, isCalculated, leafMeasures, MAX_REFERENCE_DEPTH, memberNamed, primaryKeyDimension } from './model-lookup.js';
import type { Filter } from './query.js';

/** Collects bound parameters; the SQL only ever holds placeholders. */
export class Params {
  readonly values: unknown[] = [];
  constructor(private readonly dialect: Dialect) {}
  add(value: unknown): string {
    this.values.push(value);
    return this.dialect.param(this.values.length);
  }
}

/** How a measure referenced from a calculated measure is written: an aggregate, or a column of a subquery. */
export type LeafRef = (leaf: Measure) => string;

/**
 * What rendering one query needs besides the model and the dialect. Model SQL may refer to the caller
 * (security context values, always bound as parameters) and to the query's own filters (FILTER_PARAMS).
 */
export interface RenderContext {
  readonly caller: Caller;
  readonly params: Params;
  /** The query's IANA time zone; time dimensions are shown in it. */
  readonly timezone: string;
  /** The query's filters, for model SQL that pushes them down. */
  readonly filters: readonly Filter[];
}

/** Renders model SQL templates for one query; every cube is aliased by its own (quoted) name. */
export class Renderer {
  readonly params: Params;
  readonly caller: Caller;
  readonly timezone: string;
  readonly filters: readonly Filter[];
  private zonePlaceholder: string | undefined;

  constructor(
    readonly model: DataModel,
    readonly dialect: Dialect,
    context: RenderContext,
  ) {
    this.params = context.params;
    this.caller = context.caller;
    this.timezone = context.timezone;
    this.filters = context.filters;
  }

  alias(cube: string): string {
    return this.dialect.quote(cube);
  }

  cube(name: string): Cube {
    return cubeNamed(this.model, name);
  }

  member(cube: string, name: string): Member {
    return memberNamed(this.model, cube, name);
  }

  from(cube: Cube): string {
    const source = cube.sqlTable ?? `(${this.template(cube.sql ?? { text: '', parts: [] })})`;
    return `${source} AS ${this.alias(cube.name)}`;
  }

  template(template: SqlTemplate, leafRef?: LeafRef, depth = 0): string {
    if (depth > MAX_REFERENCE_DEPTH) throw new QueryError('Model references are nested too deeply (is there a cycle?)');
    let out = '';
    for (const part of template.parts) {
      if (typeof part === 'string') out += part;
      else if (part.kind === 'cube') out += this.alias(part.cube);
      else if (part.kind !== 'member') out += renderContextRef(this, part);
      else {
        const member = this.member(part.cube, part.member);
        if (member.kind === 'dimension') out += `(${this.dimension(member, depth + 1)})`;
        else if (member.kind === 'segment') out += `(${this.template(member.sql, leafRef, depth + 1)})`;
        else if (!leafRef) throw new QueryError(`${member.path} is a measure and cannot be used here`);
        else out += `(${this.measure(member, leafRef, depth + 1)})`;
      }
    }
    return out;
  }

  /** A dimension's row-level SQL; time dimensions are zone-less UTC here. */
  dimension(dimension: Dimension, depth = 0): string {
    if (dimension.case) {
      const label = (value: string | SqlTemplate): string =>
        typeof value === 'string' ? `'${value.replace(/'/g, "''")}'` : this.template(value, undefined, depth + 1);
      const whens = dimension.case.when.map((when) => ` WHEN ${this.template(when.sql, undefined, depth + 1)} THEN ${label(when.label)}`);
      return `CASE${whens.join('')}${dimension.case.else !== undefined ? ` ELSE ${label(dimension.case.else)}` : ''} END`;
    }
    if (dimension.type === 'geo' && dimension.latitude && dimension.longitude) {
      // Cube renders a geo dimension as `latitude || ',' || longitude`; the casts let DuckDB concatenate numbers too.
      const text = (coordinate: SqlTemplate): string => `CAST((${this.template(coordinate, undefined, depth + 1)}) AS VARCHAR)`;
      return `${text(dimension.latitude)} || ',' || ${text(dimension.longitude)}`;
    }
    return this.template(dimension.sql ?? { text: 'NULL', parts: ['NULL'] }, undefined, depth + 1);
  }

  /** A UTC timestamp expression as wall-clock time in the query's zone; the zone is bound once, when first needed. */
  localTime(utcExpression: string): string {
    if (this.timezone === 'UTC') return utcExpression;
    this.zonePlaceholder ??= this.params.add(this.timezone);
    return this.dialect.convertTz(utcExpression, this.zonePlaceholder);
  }

  /** A dimension as the query sees it: time dimensions in the query's zone. */
  dimensionValue(dimension: Dimension): string {
    const sql = this.dimension(dimension);
    return dimension.type === 'time' ? this.localTime(sql) : sql;
  }

  segment(segment: Segment): string {
    return this.template(segment.sql);
  }

  primaryKey(cube: Cube): string | undefined {
    const key = primaryKeyDimension(cube);
    return key ? this.dimension(key) : undefined;
  }

  isCalculated(measure: Measure): boolean {
    return isCalculated(this.model, measure);
  }

  leaves(measure: Measure): Map<string, Measure> {
    return leafMeasures(this.model, measure);
  }

  /** The row-level value a leaf measure aggregates, with the measure's own `filters` applied. */
  measureInput(measure: Measure): string {
    const cube = this.cube(measure.cube);
    let value: string;
    if (measure.sql) value = this.template(measure.sql);
    else if (measure.type === 'count') value = this.primaryKey(cube) ?? (measure.filters.length > 0 ? '1' : '*');
    else value = 'NULL';
    if (measure.filters.length === 0) return value;
    return `CASE WHEN ${this.measureConditions(measure)} THEN ${value === '*' ? '1' : value} END`;
  }

  /** A measure's own `filters`, ANDed; `1 = 1` when it has none. */
  measureConditions(measure: Measure): string {
    if (measure.filters.length === 0) return '1 = 1';
    return measure.filters.map((filter) => `(${this.template(filter)})`).join(' AND ');
  }

  aggregate(measure: Measure, input: string): string {
    switch (measure.type) {
      case 'count':
        return `count(${input})`;
      case 'count_distinct':
        return `count(DISTINCT ${input})`;
      case 'count_distinct_approx':
        return this.dialect.countDistinctApprox(input);
      case 'sum':
      case 'avg':
      case 'min':
      case 'max':
        return `${measure.type}(${input})`;
      default:
        return input;
    }
  }

  /** A measure's SQL: leaves through `leafRef`, calculated measures composed around them. */
  measure(measure: Measure, leafRef: LeafRef, depth = 0): string {
    if (!this.isCalculated(measure)) return leafRef(measure);
    return this.template(measure.sql ?? { text: 'NULL', parts: ['NULL'] }, leafRef, depth + 1);
  }
}
