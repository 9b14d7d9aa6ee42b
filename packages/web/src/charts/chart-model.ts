import type { CubeQuery, LoadResult } from '../lib/data-api';
import type { Formatter } from '../lib/format';

/** The chart types of the report model (a report's `meta.chartType`). */
export const CHART_TYPES = ['line', 'bar', 'area', 'pie', 'table', 'number'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** What a report draws, from its meta: `chartType` (`kpi` is read as `number`), else chosen from its query. */
export function chartTypeOf(meta: Record<string, unknown> | null | undefined, query: CubeQuery): ChartType {
  const named = meta?.chartType ?? meta?.visualization ?? meta?.type;
  if (named === 'kpi') return 'number';
  if (typeof named === 'string' && (CHART_TYPES as readonly string[]).includes(named)) return named as ChartType;
  const hasTime = query.timeDimensions?.some((t) => t.granularity);
  if (hasTime) return 'line';
  if (!query.dimensions?.length && query.measures?.length) return 'number';
  return query.dimensions?.length && query.measures?.length ? 'bar' : 'table';
}

export interface Column {
  key: string;
  /** The query's member the column shows (a time column's key adds its granularity). */
  member: string;
  title: string;
  type: string;
  granularity?: string;
}

/** A result laid out for drawing and for reading: the category column first, then the measures. */
export interface ChartModel {
  category: Column | null;
  measures: Column[];
  columns: Column[];
  rows: Record<string, unknown>[];
}

export function modelOf(query: CubeQuery, result: LoadResult): ChartModel {
  const { annotation } = result;
  const columns: Column[] = [];
  for (const t of query.timeDimensions ?? []) {
    if (!t.granularity) continue;
    const key = `${t.dimension}.${t.granularity}`;
    const a = annotation.timeDimensions[key] ?? annotation.timeDimensions[t.dimension];
    columns.push({ key, member: t.dimension, title: a?.shortTitle ?? a?.title ?? t.dimension, type: 'time', granularity: t.granularity });
  }
  for (const key of query.dimensions ?? []) {
    const a = annotation.dimensions[key];
    columns.push({ key, member: key, title: a?.shortTitle ?? a?.title ?? key, type: a?.type ?? 'string' });
  }
  const measures = (query.measures ?? []).map((key) => {
    const a = annotation.measures[key];
    return { key, member: key, title: a?.shortTitle ?? a?.title ?? key, type: 'number' };
  });
  return { category: columns[0] ?? null, measures, columns: [...columns, ...measures], rows: result.data };
}

/** One sentence for assistive technology: what the chart shows, and how many values. */
export function describe(model: ChartModel, type: ChartType, format: Formatter): string {
  const what = model.measures.map((m) => m.title).join(', ') || 'values';
  if (type === 'number') {
    const first = model.rows[0];
    return model.measures.map((m) => `${m.title}: ${format.number(first?.[m.key])}`).join('; ');
  }
  const by = model.category ? ` by ${model.category.title}` : '';
  return `${type === 'table' ? 'Table' : `${type[0]?.toUpperCase()}${type.slice(1)} chart`} of ${what}${by}, ${model.rows.length} ${model.rows.length === 1 ? 'row' : 'rows'}. The values are listed in the table that follows.`;
}

/** What a click on a data point or a cell picks: the member and raw value under the pointer. */
export type Pick = (row: Record<string, unknown>, column: Column) => void;

/**
 * A chart's data point, clicked: the category it stands for (the row's first dimension), else the
 * measure of its series (a chart without dimensions).
 */
export function pickPoint(model: ChartModel, dataIndex: number, seriesIndex: number, pick: Pick): void {
  const row = model.rows[dataIndex];
  const column = model.category ?? model.measures[seriesIndex];
  if (row && column) pick(row, column);
}
