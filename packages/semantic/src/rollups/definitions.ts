import type { Cube, DataModel, Dimension, Measure, PreAggregation } from '../model.js';
import type { MeasurePart, RollupColumn, RollupDefinition } from './types.js';

/** The stored parts of each measure type a rollup can hold; other types cannot be stored. */
export const MEASURE_PARTS: Partial<Record<Measure['type'], readonly MeasurePart[]>> = {
  count: ['count'],
  sum: ['sum'],
  min: ['min'],
  max: ['max'],
  avg: ['sum', 'count'],
  count_distinct_approx: ['distinct_values'],
  count_distinct: ['distinct_count'],
};

export function memberAt(model: DataModel, path: string): Measure | Dimension | undefined {
  const [cube = '', name = ''] = path.split('.');
  const owner = model.cubes.get(cube);
  return owner?.measures.get(name) ?? owner?.dimensions.get(name);
}

function columnBase(path: string): string {
  return path.replace('.', '__');
}

export function dimensionColumn(path: string): string {
  return columnBase(path);
}

export function timeColumn(path: string, granularity: string): string {
  return `${columnBase(path)}_${granularity}`;
}

export function segmentColumn(path: string): string {
  return columnBase(path);
}

export function measureColumn(path: string, part: MeasurePart, parts: readonly MeasurePart[]): string {
  return parts.length > 1 ? `${columnBase(path)}__${part}` : columnBase(path);
}

function dimensionType(dimension: Dimension | undefined): RollupColumn['type'] {
  if (!dimension || dimension.type === 'geo') return 'string';
  return dimension.type;
}

/** The columns of a pre-aggregation's rows, in the order the build query returns them. */
export function rollupColumns(model: DataModel, pre: PreAggregation): RollupColumn[] {
  if (pre.type === 'original_sql') return [];
  const columns: RollupColumn[] = pre.dimensions.map((path) => ({
    name: dimensionColumn(path),
    type: dimensionType(memberAt(model, path) as Dimension | undefined),
    role: 'dimension',
    member: path,
  }));
  if (pre.timeDimension && pre.granularity) {
    columns.push({ name: timeColumn(pre.timeDimension, pre.granularity), type: 'time', role: 'time', member: pre.timeDimension });
  }
  for (const path of pre.segments) columns.push({ name: segmentColumn(path), type: 'boolean', role: 'segment', member: path });
  for (const path of pre.measures) {
    const measure = memberAt(model, path);
    const parts = measure?.kind === 'measure' ? (MEASURE_PARTS[measure.type] ?? []) : [];
    for (const part of parts) {
      columns.push({
        name: measureColumn(path, part, parts),
        type: part === 'distinct_values' ? 'list' : 'number',
        role: 'measure-part',
        member: path,
        part,
      });
    }
  }
  return columns;
}

export function tableNameOf(cube: string, name: string): string {
  return `${cube}_${name}`.toLowerCase();
}

export function definitionOf(model: DataModel, cube: Cube, pre: PreAggregation): RollupDefinition {
  // As in Cube: a pre-aggregation without a refresh key of its own refreshes by its cube's.
  const refreshKey = pre.refreshKey ?? cube.refreshKey;
  return {
    id: `${cube.name}.${pre.name}`,
    cube: cube.name,
    name: pre.name,
    type: pre.type,
    tableName: tableNameOf(cube.name, pre.name),
    external: pre.external,
    columns: rollupColumns(model, pre),
    measures: pre.measures,
    dimensions: pre.dimensions,
    segments: pre.segments,
    ...(pre.timeDimension !== undefined ? { timeDimension: pre.timeDimension } : {}),
    ...(pre.granularity !== undefined ? { granularity: pre.granularity } : {}),
    ...(pre.partitionGranularity !== undefined ? { partitionGranularity: pre.partitionGranularity } : {}),
    refreshKey: {
      // Cube refreshes a pre-aggregation without a refresh key every hour.
      ...(refreshKey?.every !== undefined ? { every: refreshKey.every } : refreshKey?.sql ? {} : { every: '1 hour' }),
      ...(refreshKey?.everySeconds !== undefined
        ? { everySeconds: refreshKey.everySeconds }
        : refreshKey?.every || refreshKey?.sql
          ? {}
          : { everySeconds: 3600 }),
      hasSql: refreshKey?.sql !== undefined,
      incremental: refreshKey?.incremental ?? false,
      ...(refreshKey?.updateWindow !== undefined ? { updateWindow: refreshKey.updateWindow } : {}),
      ...(refreshKey?.updateWindowSeconds !== undefined ? { updateWindowSeconds: refreshKey.updateWindowSeconds } : {}),
    },
    buildRange: { start: pre.buildRangeStart !== undefined, end: pre.buildRangeEnd !== undefined },
    indexes: pre.indexes,
    allowNonStrictDateRangeMatch: pre.allowNonStrictDateRangeMatch,
    ...(pre.rollups ? { rollups: pre.rollups } : {}),
  };
}

export function findPreAggregation(model: DataModel, id: string): { cube: Cube; pre: PreAggregation } {
  const dot = id.indexOf('.');
  const cube = model.cubes.get(id.slice(0, dot));
  const pre = cube?.preAggregations.get(id.slice(dot + 1));
  if (!cube || !pre) throw new Error(`No pre-aggregation ${id} in the model`);
  return { cube, pre };
}

/** Every pre-aggregation of the model, with the columns its rollup rows hold. */
export function rollupDefinitions(model: DataModel): RollupDefinition[] {
  return [...model.cubes.values()].flatMap((cube) => [...cube.preAggregations.values()].map((pre) => definitionOf(model, cube, pre)));
}
