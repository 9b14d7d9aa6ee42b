import { QueryError } from '../errors.js';
import type { Measure } from '../model.js';
import type { JoinTree } from './joins.js';
import type { LeafRef, Renderer } from './render.js';

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
}

/** `FROM` the tree's root and `LEFT JOIN` along its joins. */
export function joinedFrom(renderer: Renderer, tree: JoinTree): string {
  const lines = [`FROM ${renderer.from(renderer.cube(tree.root))}`];
  for (const join of tree.joins) lines.push(`LEFT JOIN ${renderer.from(renderer.cube(join.to))} ON ${renderer.template(join.sql)}`);
  return lines.join('\n');
}

function fromClause(spec: SelectSpec): string {
  return joinedFrom(spec.renderer, spec.tree);
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
    : (measure) => renderer.aggregate(measure, renderer.measureInput(measure));
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
  const leaves = new Map<string, Measure>();
  for (const measure of [...spec.measures.map((column) => column.measure), ...spec.filterLeaves]) {
    for (const [path, leaf] of renderer.leaves(measure)) leaves.set(path, leaf);
  }
  const regular = [...leaves.values()].filter((leaf) => !spec.multiplied.has(leaf.path));
  const multipliedByCube = new Map<string, Measure[]>();
  for (const leaf of leaves.values()) {
    if (spec.multiplied.has(leaf.path)) multipliedByCube.set(leaf.cube, [...(multipliedByCube.get(leaf.cube) ?? []), leaf]);
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
      return `${renderer.aggregate(leaf, renderer.measureInput(leaf))} ${quote(`m${index}`)}`;
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
    const inputs = measures.map((measure, index) => {
      if (measure.type === 'number' || measure.type === 'string' || measure.type === 'time' || measure.type === 'boolean') {
        throw new QueryError(
          `Measure ${measure.path} aggregates in its own SQL and cannot be computed across the one-to-many join of this query; define it from sum/count/avg measures instead`,
        );
      }
      return `${renderer.measureInput(measure)} ${quote(`v${index}`)}`;
    });
    const keys = `SELECT DISTINCT\n  ${[...dimensionSelect, `${primaryKey} ${quote('pk')}`, ...inputs].join(',\n  ')}\n${from}${where}`;
    const columns = measures.map((measure, index) => {
      leafColumn.set(measure.path, `${quote(partAlias)}.${quote(`m${index}`)}`);
      return `${renderer.aggregate(measure, quote(`v${index}`))} ${quote(`m${index}`)}`;
    });
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
  return spec.multiplied.size > 0 && !spec.ungrouped ? multiStage(spec) : singleStage(spec);
}
