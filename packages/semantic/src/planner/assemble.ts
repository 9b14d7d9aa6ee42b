import { QueryError } from '../errors.js';
import type { Measure } from '../model.js';
import type { JoinTree } from './joins.js';
import { recombine, type PreAggregatedJoin } from './pre-aggregated-joins.js';
import { countsRowsByKey, memberCubes } from './model-lookup.js';
import { Params, Renderer, type LeafRef } from './render.js';

export interface DimensionColumn {
  readonly alias: string;
  readonly expr: string;
}
export interface MeasureColumn {
  readonly alias: string;
  readonly measure: Measure;
}

/** Everything needed to write the SELECT once members, joins and conditions are rendered. */
export interface SelectSpec {
  readonly renderer: Renderer;
  readonly tree: JoinTree;
  readonly dimensions: readonly DimensionColumn[];
  readonly measures: readonly MeasureColumn[];
  readonly where: readonly string[];
  /** Measure conditions, given how leaf measures are referenced in the current shape. */
  readonly having: (leafRef: LeafRef) => string[];
  readonly ungrouped: boolean;
  /** Leaf measures whose cube is fanned out by a one-to-many join in the tree. */
  readonly multiplied: ReadonlySet<string>;
  /** Leaf measures used by filters but not selected. */
  readonly filterLeaves: readonly Measure[];
  /** Joins whose far cube is aggregated per near-side row in a subquery. */
  readonly preAggregated: readonly PreAggregatedJoin[];
  /** Joins written already (sub_query dimensions), added after the tree's. */
  readonly extraJoins: readonly string[];
  /**
   * The conditions of `where` that read nothing but `cube`'s own columns: a subquery aggregating the
   * far side of a join from `cube` repeats them, so it reads only the rows the query keeps.
   */
  readonly conditionsOnlyOn: (cube: string) => readonly string[];
}

/** `FROM` the tree's root and `LEFT JOIN` along its joins. */
export function joinedFrom(renderer: Renderer, tree: JoinTree): string {
  const lines = [`FROM ${renderer.from(renderer.cube(tree.root))}`];
  for (const join of tree.joins) lines.push(`LEFT JOIN ${renderer.from(renderer.cube(join.to))} ON ${renderer.template(join.sql)}`);
  return lines.join('\n');
}

function fromClause(spec: SelectSpec): string {
  const renderer = spec.renderer;
  const lines = [`FROM ${renderer.from(renderer.cube(spec.tree.root))}`];
  for (const join of spec.tree.joins) {
    const preAggregated = spec.preAggregated.find((candidate) => candidate.join === join);
    lines.push(
      preAggregated
        ? preAggregatedJoinClause(renderer, preAggregated, spec.conditionsOnlyOn(join.from))
        : `LEFT JOIN ${renderer.from(renderer.cube(join.to))} ON ${renderer.template(join.sql)}`,
    );
  }
  lines.push(...spec.extraJoins);
  return lines.join('\n');
}

function partialsAlias(preAggregated: PreAggregatedJoin): string {
  return `${preAggregated.cube}__partials`;
}

/**
 * The far cube's measures per near-side primary key, joined back on that key: one row per near-side row.
 * When the query narrows the near side, the subquery joins the near rows first and keeps only those the
 * outer WHERE keeps, instead of aggregating every far row and discarding most of the groups afterwards.
 */
function preAggregatedJoinClause(renderer: Renderer, preAggregated: PreAggregatedJoin, nearConditions: readonly string[]): string {
  const quote = (name: string): string => renderer.dialect.quote(name);
  const near = renderer.cube(preAggregated.join.from);
  const nearKey = renderer.primaryKey(near) ?? '';
  const partials = preAggregated.leaves.map(
    (leaf, index) => `${renderer.aggregate(leaf, renderer.measureInput(leaf))} ${quote(`p${index}`)}`,
  );
  const farColumn = nearConditions.length > 0 ? undefined : farJoinColumn(renderer, preAggregated, nearKey);
  const far = renderer.from(renderer.cube(preAggregated.cube));
  const subquery = farColumn
    ? `SELECT\n  ${[`${farColumn} ${quote('k')}`, ...partials].join(',\n  ')}\nFROM ${far}\nGROUP BY 1`
    : `SELECT\n  ${[`${nearKey} ${quote('k')}`, ...partials].join(',\n  ')}\n` +
      `FROM ${renderer.from(near)}\nINNER JOIN ${far} ON ${renderer.template(preAggregated.join.sql)}` +
      `${conditionClause(nearConditions)}\nGROUP BY 1`;
  const alias = quote(partialsAlias(preAggregated));
  return `LEFT JOIN (\n${subquery}\n) AS ${alias} ON ${alias}.${quote('k')} = ${nearKey}`;
}

/**
 * The far cube's column that the join equates with the near cube's primary key, when the join is
 * nothing more than that (`{CUBE}.id = {line_items}.order_id`) and the far measures read only their own
 * cube: the far rows can then be grouped by that column alone, without reading the near cube again.
 * Far rows matching no near row form groups the outer join never picks up, as with the inner join.
 */
function farJoinColumn(renderer: Renderer, preAggregated: PreAggregatedJoin, nearKey: string): string | undefined {
  for (const leaf of preAggregated.leaves) {
    const reached = new Set<string>();
    memberCubes(renderer.model, leaf, reached);
    if ([...reached].some((cube) => cube !== preAggregated.cube)) return undefined;
  }
  // Rendered apart, so that a join reading the security context or the query's filters binds nothing here.
  const scratch = new Renderer(renderer.model, renderer.dialect, {
    caller: renderer.caller,
    params: new Params(renderer.dialect),
    timezone: renderer.timezone,
    filters: renderer.filters,
  });
  const sides = scratch.template(preAggregated.join.sql).split('=').map(withoutParentheses);
  if (scratch.params.values.length > 0 || sides.length !== 2) return undefined;
  const [left = '', right = ''] = sides;
  const candidate = left === nearKey ? right : right === nearKey ? left : undefined;
  const farAlias = renderer.alias(preAggregated.cube);
  const column = candidate?.startsWith(`${farAlias}.`) ? candidate.slice(farAlias.length + 1) : undefined;
  return column !== undefined && PLAIN_COLUMN.test(column) ? (candidate as string) : undefined;
}

/** A bare or quoted column name: anything else (an expression, a second condition) keeps the join. */
const PLAIN_COLUMN = /^(?:[A-Za-z_][A-Za-z0-9_]*|"[^"]+")$/;

function withoutParentheses(side: string): string {
  const trimmed = side.trim();
  const inner = trimmed.startsWith('(') && trimmed.endsWith(')') ? trimmed.slice(1, -1).trim() : trimmed;
  return /[()]/.test(inner) ? trimmed : inner;
}

/** Leaf measures whose repeated rows only a distinct-rows stage can aggregate correctly. */
function needsDistinctRows(spec: SelectSpec, leaf: Measure): boolean {
  return spec.multiplied.has(leaf.path) && !countsRowsByKey(spec.renderer.model, leaf);
}

function leafMeasuresOf(spec: SelectSpec): Map<string, Measure> {
  const leaves = new Map<string, Measure>();
  for (const measure of [...spec.measures.map((column) => column.measure), ...spec.filterLeaves]) {
    for (const [path, leaf] of spec.renderer.leaves(measure)) leaves.set(path, leaf);
  }
  return leaves;
}

/**
 * How a leaf measure is aggregated over the joined rows: from its per-row partial when its cube was
 * pre-aggregated, by distinct keys when it counts a cube whose rows the joins repeat.
 */
function rowAggregate(spec: SelectSpec, measure: Measure): string {
  const renderer = spec.renderer;
  if (spec.multiplied.has(measure.path) && countsRowsByKey(renderer.model, measure)) {
    return `count(DISTINCT ${renderer.measureInput(measure)})`;
  }
  for (const preAggregated of spec.preAggregated) {
    const index = preAggregated.leaves.findIndex((leaf) => leaf.path === measure.path);
    if (index >= 0)
      return recombine(measure, `${renderer.dialect.quote(partialsAlias(preAggregated))}.${renderer.dialect.quote(`p${index}`)}`);
  }
  return renderer.aggregate(measure, renderer.measureInput(measure));
}

const conditionClause = (conditions: readonly string[], keyword = 'WHERE'): string =>
  conditions.length > 0 ? `\n${keyword} ${conditions.map((condition) => `(${condition})`).join(' AND ')}` : '';

const groupBy = (columnCount: number): string =>
  columnCount > 0 ? `\nGROUP BY ${Array.from({ length: columnCount }, (_, index) => index + 1).join(', ')}` : '';

/** One SELECT with GROUP BY: right whenever no measure's rows are repeated by a join. */
function singleStage(spec: SelectSpec): string {
  const renderer = spec.renderer;
  const leafRef: LeafRef = spec.ungrouped
    ? (measure) => {
        const input = renderer.measureInput(measure);
        return measure.type === 'count' || measure.type === 'count_distinct'
          ? `CASE WHEN ${input === '*' ? '1' : input} IS NOT NULL THEN 1 ELSE 0 END`
          : input;
      }
    : (measure) => rowAggregate(spec, measure);
  const quote = (name: string): string => renderer.dialect.quote(name);
  const select = [
    ...spec.dimensions.map((column) => `${column.expr} ${quote(column.alias)}`),
    ...spec.measures.map((column) => `${renderer.measure(column.measure, leafRef)} ${quote(column.alias)}`),
  ];
  return (
    `SELECT\n  ${select.join(',\n  ')}\n${fromClause(spec)}${conditionClause(spec.where)}` +
    (spec.ungrouped ? '' : `${groupBy(spec.dimensions.length)}${conditionClause(spec.having(leafRef), 'HAVING')}`)
  );
}

/**
 * Fan-out safe shape, as Cube does it: regular measures aggregate over the joined rows; measures of a
 * multiplied cube aggregate over the distinct (dimensions, primary key) rows of that cube; the parts
 * are joined on the dimensions.
 */
function multiStage(spec: SelectSpec): string {
  const renderer = spec.renderer;
  const quote = (name: string): string => renderer.dialect.quote(name);
  const leaves = leafMeasuresOf(spec);
  const regular = [...leaves.values()].filter((leaf) => !needsDistinctRows(spec, leaf));
  const multipliedByCube = new Map<string, Measure[]>();
  for (const leaf of leaves.values()) {
    if (needsDistinctRows(spec, leaf)) multipliedByCube.set(leaf.cube, [...(multipliedByCube.get(leaf.cube) ?? []), leaf]);
  }
  const leafColumn = new Map<string, string>();
  const parts: string[] = [];
  const dimensionSelect = spec.dimensions.map((column, index) => `${column.expr} ${quote(`d${index}`)}`);
  const from = fromClause(spec);
  const where = conditionClause(spec.where);
  if (regular.length > 0 || multipliedByCube.size === 0) {
    const partAlias = `q_${parts.length}`;
    const columns = regular.map((leaf, index) => {
      leafColumn.set(leaf.path, `${quote(partAlias)}.${quote(`m${index}`)}`);
      return `${rowAggregate(spec, leaf)} ${quote(`m${index}`)}`;
    });
    parts.push(`SELECT\n  ${[...dimensionSelect, ...columns].join(',\n  ')}\n${from}${where}${groupBy(spec.dimensions.length)}`);
  }
  for (const [cubeName, measures] of multipliedByCube) {
    const primaryKey = renderer.primaryKey(renderer.cube(cubeName));
    if (!primaryKey) {
      throw new QueryError(
        `Cube ${cubeName} needs a primary key: its measures ${measures.map((measure) => measure.path).join(', ')} are repeated by a one-to-many join in this query and can only be aggregated correctly per primary key`,
      );
    }
    const partAlias = `q_${parts.length}`;
    // One column per distinct input expression: a count's input is the primary key itself, and every
    // extra column widens the DISTINCT that dominates this query's cost.
    const inputColumns = new Map<string, string>([[primaryKey, quote('pk')]]);
    const columns = measures.map((measure, index) => {
      if (measure.type === 'number' || measure.type === 'string' || measure.type === 'time' || measure.type === 'boolean') {
        throw new QueryError(
          `Measure ${measure.path} aggregates in its own SQL and cannot be computed across the one-to-many join of this query; define it from sum/count/avg measures instead`,
        );
      }
      const input = renderer.measureInput(measure);
      const inputColumn = inputColumns.get(input) ?? quote(`v${inputColumns.size - 1}`);
      inputColumns.set(input, inputColumn);
      leafColumn.set(measure.path, `${quote(partAlias)}.${quote(`m${index}`)}`);
      return `${renderer.aggregate(measure, inputColumn)} ${quote(`m${index}`)}`;
    });
    const keyColumns = [...inputColumns].map(([input, column]) => `${input} ${column}`);
    const keys = `SELECT DISTINCT\n  ${[...dimensionSelect, ...keyColumns].join(',\n  ')}\n${from}${where}`;
    const dimensionColumns = spec.dimensions.map((_, index) => quote(`d${index}`));
    parts.push(
      `SELECT\n  ${[...dimensionColumns, ...columns].join(',\n  ')}\nFROM (\n${keys}\n) AS ${quote('keys')}${groupBy(spec.dimensions.length)}`,
    );
  }
  const leafRef: LeafRef = (measure) => {
    const column = leafColumn.get(measure.path);
    if (!column) throw new QueryError(`Internal error: measure ${measure.path} was not planned`);
    return column;
  };
  const joined = parts.map((part, index) => {
    const subquery = `(\n${part}\n) AS ${quote(`q_${index}`)}`;
    if (index === 0) return `FROM ${subquery}`;
    if (spec.dimensions.length === 0) return `CROSS JOIN ${subquery}`;
    const on = spec.dimensions
      .map((_, column) => `${quote('q_0')}.${quote(`d${column}`)} IS NOT DISTINCT FROM ${quote(`q_${index}`)}.${quote(`d${column}`)}`)
      .join(' AND ');
    return `INNER JOIN ${subquery} ON ${on}`;
  });
  const select = [
    ...spec.dimensions.map((column, index) => `${quote('q_0')}.${quote(`d${index}`)} ${quote(column.alias)}`),
    ...spec.measures.map((column) => `${renderer.measure(column.measure, leafRef)} ${quote(column.alias)}`),
  ];
  return `SELECT\n  ${select.join(',\n  ')}\n${joined.join('\n')}${conditionClause(spec.having(leafRef))}`;
}

export function selectSql(spec: SelectSpec): string {
  if (spec.ungrouped || spec.multiplied.size === 0) return singleStage(spec);
  return [...leafMeasuresOf(spec).values()].some((leaf) => needsDistinctRows(spec, leaf)) ? multiStage(spec) : singleStage(spec);
}
