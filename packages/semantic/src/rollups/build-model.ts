import type { Cube, DataModel, Dimension, Measure, Segment, SqlTemplate } from '../model.js';

/**
 * The model a rollup is built from: every member public and no access policy (a rollup holds every
 * row; policies apply when it is read), plus hidden helper members that compute the mergeable parts
 * of measures a plain aggregate cannot store: an average's sum and count, a distinct count's values,
 * and a segment as a boolean column.
 */

const cache = new WeakMap<DataModel, Map<string, DataModel>>();

export const sumOf = (name: string): string => `__rollup_sum__${name}`;
export const countOf = (name: string): string => `__rollup_count__${name}`;
export const valuesOf = (name: string): string => `__rollup_values__${name}`;
export const segmentFlagOf = (name: string): string => `__rollup_segment__${name}`;

function template(parts: ReadonlyArray<string | SqlTemplate>): SqlTemplate {
  const flat = parts.flatMap((part) => (typeof part === 'string' ? [part] : part.parts));
  return { text: flat.filter((part): part is string => typeof part === 'string').join(''), parts: flat };
}

/** The value a measure aggregates per row, its own `filters` applied (NULL where they do not hold). */
function measureInput(measure: Measure): SqlTemplate | undefined {
  if (!measure.sql) return undefined;
  if (measure.filters.length === 0) return measure.sql;
  const conditions = measure.filters.flatMap((filter, index) => [index > 0 ? ') AND (' : '(', filter]);
  return template(['CASE WHEN ', ...conditions, ') THEN (', measure.sql, ') END']);
}

function helperMeasures(measure: Measure, listAggregate: string): Measure[] {
  const hidden = { public: false, filters: [] as readonly SqlTemplate[] };
  if (measure.type === 'avg') {
    return [
      {
        ...measure,
        ...hidden,
        filters: measure.filters,
        name: sumOf(measure.name),
        path: `${measure.cube}.${sumOf(measure.name)}`,
        type: 'sum',
      },
      {
        ...measure,
        ...hidden,
        filters: measure.filters,
        name: countOf(measure.name),
        path: `${measure.cube}.${countOf(measure.name)}`,
        type: 'count',
      },
    ];
  }
  const input = measure.type === 'count_distinct_approx' ? measureInput(measure) : undefined;
  if (!input) return [];
  // A `number` measure whose SQL is itself an aggregate: the planner writes it as it is.
  const sql = template([`${listAggregate}(DISTINCT (`, input, ')) FILTER (WHERE (', input, ') IS NOT NULL)']);
  return [{ ...measure, ...hidden, name: valuesOf(measure.name), path: `${measure.cube}.${valuesOf(measure.name)}`, type: 'number', sql }];
}

function segmentFlag(segment: Segment): Dimension {
  return {
    kind: 'dimension',
    cube: segment.cube,
    name: segmentFlagOf(segment.name),
    path: `${segment.cube}.${segmentFlagOf(segment.name)}`,
    title: segment.title,
    shortTitle: segment.shortTitle,
    public: true,
    type: 'boolean',
    primaryKey: false,
    // A row outside the segment (its condition false or NULL) is stored as false.
    sql: template(['COALESCE((', segment.sql, '), FALSE)']),
  };
}

function buildCube(cube: Cube, listAggregate: string): Cube {
  const measures = new Map<string, Measure>();
  for (const measure of cube.measures.values()) {
    measures.set(measure.name, { ...measure, public: true });
    for (const helper of helperMeasures(measure, listAggregate)) measures.set(helper.name, { ...helper, public: true });
  }
  const dimensions = new Map<string, Dimension>();
  for (const dimension of cube.dimensions.values()) dimensions.set(dimension.name, { ...dimension, public: true });
  for (const segment of cube.segments.values()) dimensions.set(segmentFlagOf(segment.name), segmentFlag(segment));
  const { accessPolicy: _policies, ...rest } = cube;
  void _policies;
  return { ...rest, public: true, measures, dimensions };
}

/** The build model for `model` on a warehouse whose list aggregate is `listAggregate` (`list`, `array_agg`). */
export function buildModelOf(model: DataModel, listAggregate: string): DataModel {
  let byAggregate = cache.get(model);
  if (!byAggregate) cache.set(model, (byAggregate = new Map()));
  let built = byAggregate.get(listAggregate);
  if (!built) {
    built = { cubes: new Map([...model.cubes].map(([name, cube]) => [name, buildCube(cube, listAggregate)])), views: new Map() };
    byAggregate.set(listAggregate, built);
  }
  return built;
}
