import type { Dialect } from '../dialects/dialect.js';
import { QueryError } from '../errors.js';
import type { Measure, RollingWindow, WindowBound } from '../model.js';
import { add, formatWall, startOf, wallToUtc, type Unit } from './dates.js';
import type { Renderer } from './render.js';

/**
 * Rolling windows as Cube's BaseQuery plans them: a series of the query's periods, each carrying the
 * window it aggregates, joined to the base rows on a range condition. The base rows are read over the
 * union of all windows, so the query's date range is widened for them and not for the output.
 */

/** A local ("wall") time range, both ends inclusive, as Cube's time series writes periods (`…T23:59:59.999`). */
export interface Period {
  readonly from: number;
  readonly to: number;
}

/** One end of a window: a wall time, and whether a row exactly on it belongs to the window. */
export interface WindowEdge {
  readonly wall: number;
  readonly inclusive: boolean;
}

export interface WindowRange {
  readonly lower?: WindowEdge;
  readonly upper?: WindowEdge;
}

/** Every period of `granularity` that overlaps the range, each whole (the first starts before the range when it starts mid-period). */
export function timeSeries(granularity: Unit, range: Period): Period[] {
  const periods: Period[] = [];
  for (let start = startOf(range.from, granularity); start <= range.to; start = add(start, 1, granularity)) {
    periods.push({ from: start, to: add(start, 1, granularity) - 1 });
    if (periods.length > 50_000) throw new QueryError(`The time series of this query has more than 50000 ${granularity} periods`);
  }
  return periods;
}

function shift(wall: number, bound: Exclude<WindowBound, 'unbounded'>, sign: 1 | -1): number {
  return add(wall, sign * bound.count, bound.unit);
}

/**
 * The window a period aggregates (Cube's rollingWindowDateJoinCondition and its to_date and running
 * total forms). `rangeFrom` is the start of the query's date range, where a running total starts.
 */
export function windowOf(window: RollingWindow, period: Period, rangeFrom: number): WindowRange {
  if (window.kind === 'to_date') {
    return { lower: { wall: startOf(period.from, window.granularity), inclusive: true }, upper: { wall: period.to, inclusive: true } };
  }
  if (window.kind === 'running_total') return { lower: { wall: rangeFrom, inclusive: true }, upper: { wall: period.to, inclusive: true } };
  const atStart = window.offset === 'start';
  const anchor = atStart ? period.from : period.to;
  const lower =
    window.trailing === 'unbounded'
      ? undefined
      : { wall: window.trailing ? shift(anchor, window.trailing, -1) : anchor, inclusive: atStart };
  const upper =
    window.leading === 'unbounded' ? undefined : { wall: window.leading ? shift(anchor, window.leading, 1) : anchor, inclusive: !atStart };
  return { ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) };
}

/** The smallest range holding every window: what the base rows must be read over. */
export function widenedRange(windows: readonly WindowRange[]): WindowRange {
  const lowers = windows.map((w) => w.lower);
  const uppers = windows.map((w) => w.upper);
  const lower = lowers.every((l) => l !== undefined)
    ? lowers.reduce((earliest, edge) => (edge.wall < earliest.wall || (edge.wall === earliest.wall && edge.inclusive) ? edge : earliest))
    : undefined;
  const upper = uppers.every((u) => u !== undefined)
    ? uppers.reduce((latest, edge) => (edge.wall > latest.wall || (edge.wall === latest.wall && edge.inclusive) ? edge : latest))
    : undefined;
  return { ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) };
}

/**
 * A timestamp literal. Window edges are computed here from parsed dates, never taken from the request
 * as text, so writing them inline is safe and keeps a long series out of the parameter list.
 */
export function timestampLiteral(wall: number): string {
  return `TIMESTAMP '${formatWall(wall).replace('T', ' ')}'`;
}

/** SQL conditions putting `expr` inside a window whose edges are SQL expressions. */
export function rangeConditions(expr: string, range: WindowRange, edge: (which: 'lower' | 'upper') => string): string[] {
  const out: string[] = [];
  if (range.lower) out.push(`${expr} ${range.lower.inclusive ? '>=' : '>'} ${edge('lower')}`);
  if (range.upper) out.push(`${expr} ${range.upper.inclusive ? '<=' : '<'} ${edge('upper')}`);
  return out;
}

/** What a cumulative measure is computed over: the query's rows, minus the windowed time dimension's own date range. */
export interface RollingSource {
  readonly renderer: Renderer;
  /** `FROM … LEFT JOIN …` of the query. */
  readonly from: string;
  readonly where: readonly string[];
  /** The query's dimension columns in order; `series` marks the column of the time dimension the window runs along. */
  readonly dimensions: ReadonlyArray<{ readonly alias: string; readonly expr: string; readonly series?: boolean }>;
  /** The windowed time dimension in local time, untruncated; undefined when the query has none (the window then covers every row). */
  readonly time?: {
    /** The time in the query's zone, needed with a granularity only. */
    readonly expr?: string;
    /** The same column as stored (zone-less UTC), and the query's zone: rows are selected on it so an index serves. */
    readonly utcExpr: string;
    readonly timezone: string;
    readonly granularity?: Unit;
    readonly range?: Period;
  };
}

/**
 * One SELECT computing a cumulative measure per dimension row, with the query's dimension aliases and
 * `measureAlias`, so it can be joined to the other measures of the query on its dimensions. `rowKey`,
 * the primary key of the measure's cube, is given when a one-to-many join repeats that cube's rows.
 */
export function rollingSelect(source: RollingSource, measure: Measure, measureAlias: string, rowKey?: string): string {
  const window = measure.rollingWindow;
  if (!window) throw new QueryError(`Internal error: ${measure.path} has no rolling window`);
  const renderer = source.renderer;
  const quote = (id: string): string => renderer.dialect.quote(id);
  const input = renderer.measureInput(measure);
  const time = source.time;
  const groupBy = (count: number): string => (count > 0 ? `\nGROUP BY ${Array.from({ length: count }, (_, i) => i + 1).join(', ')}` : '');
  const whereSql = (conditions: readonly string[]): string =>
    conditions.length > 0 ? `\nWHERE ${conditions.map((c) => `(${c})`).join(' AND ')}` : '';

  if (!time?.granularity) {
    // No series: one window around the whole date range (Cube's isFromStartToEnd = false), or every row without one.
    const conditions = [...source.where];
    if (time?.range) {
      const range = windowOf(window, time.range, time.range.from);
      conditions.push(...utcRangeConditions(time, range));
    }
    if (rowKey === undefined) {
      const select = [
        ...source.dimensions.map((d) => `${d.expr} ${quote(d.alias)}`),
        `${renderer.aggregate(measure, input)} ${quote(measureAlias)}`,
      ];
      return `SELECT\n  ${select.join(',\n  ')}\n${source.from}${whereSql(conditions)}${groupBy(source.dimensions.length)}`;
    }
    // Rows repeated by a one-to-many join count once: one row per (dimensions, primary key), as Cube does.
    const keyed = `SELECT DISTINCT\n  ${[...source.dimensions.map((d) => `${d.expr} ${quote(d.alias)}`), `${rowKey} ${quote('k')}`, `${input === '*' ? '1' : input} ${quote('v')}`].join(',\n  ')}\n${source.from}${whereSql(conditions)}`;
    const select = [...source.dimensions.map((d) => quote(d.alias)), `${renderer.aggregate(measure, quote('v'))} ${quote(measureAlias)}`];
    return `SELECT\n  ${select.join(',\n  ')}\nFROM (\n${keyed}\n) AS ${quote('keys')}${groupBy(source.dimensions.length)}`;
  }
  if (!time.range) throw new QueryError("Time series queries without dateRange aren't supported");
  const localTime = time.expr;
  if (localTime === undefined) throw new QueryError(`Internal error: the time series of ${measure.path} has no local time`);
  const series = timeSeries(time.granularity, time.range);
  // A range that ends before it starts has no periods: keep one so the SQL stays well-typed, and select no row.
  const empty = series.length === 0;
  const periods = empty ? [{ from: time.range.from, to: time.range.from }] : series;
  const windows = periods.map((p) => windowOf(window, p, time.range?.from ?? p.from));
  const widened = widenedRange(windows);
  const baseWhere = [...source.where, ...utcRangeConditions(time, widened)];
  const plain = source.dimensions.filter((d) => !d.series);
  const value = rowValue(measure, input);
  const keyColumn = rowKey === undefined ? [] : [`${rowKey} ${quote('k')}`];
  // A repeated row counts once per key and period, as Cube groups such a measure's base rows (a key with two
  // far-side rows in one day counts once that day). The period divides every window edge, so no row changes window.
  const baseTime = rowKey === undefined ? localTime : renderer.dialect.truncate(keyedGranularity(window, time.granularity), localTime);
  const base =
    `SELECT${rowKey === undefined ? '' : ' DISTINCT'}\n  ${[...plain.map((d) => `${d.expr} ${quote(d.alias)}`), ...keyColumn, `${baseTime} ${quote('t')}`, `${value} ${quote('v')}`].join(',\n  ')}\n` +
    `${source.from}${whereSql(baseWhere)}`;
  const rows = periods.map((period, index) => {
    const periodWindow = windows[index] ?? {};
    const edge = (windowEdge: WindowEdge | undefined): string => (windowEdge ? timestampLiteral(windowEdge.wall) : 'NULL');
    return `(${timestampLiteral(period.from)}, ${edge(periodWindow.lower)}, ${edge(periodWindow.upper)})`;
  });
  const seriesTable = `(VALUES ${rows.join(', ')}) AS ${quote('series')}(${quote('date_from')}, ${quote('window_from')}, ${quote('window_to')})`;
  const on = rangeConditions(`${quote('base')}.${quote('t')}`, edgesOf(windows), (which) =>
    which === 'lower' ? `${quote('series')}.${quote('window_from')}` : `${quote('series')}.${quote('window_to')}`,
  );
  const select = source.dimensions.map((dimension) =>
    dimension.series
      ? `${quote('series')}.${quote('date_from')} ${quote(dimension.alias)}`
      : `${quote('base')}.${quote(dimension.alias)} ${quote(dimension.alias)}`,
  );
  select.push(`${reaggregate(renderer.dialect, measure, `${quote('base')}.${quote('v')}`)} ${quote(measureAlias)}`);
  return (
    `SELECT\n  ${select.join(',\n  ')}\nFROM ${seriesTable}\nLEFT JOIN (\n${base}\n) AS ${quote('base')} ON ${on.length > 0 ? on.join(' AND ') : '1 = 1'}` +
    `${empty ? '\nWHERE 1 = 0' : ''}${groupBy(source.dimensions.length)}`
  );
}

const UNITS: readonly Unit[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

/** Cube's minGranularity: the finer of two units; a week and a month (or coarser) have only days in common. */
function finer(left: Unit, right: Unit): Unit {
  const [fine, coarse] = UNITS.indexOf(left) <= UNITS.indexOf(right) ? [left, right] : [right, left];
  return fine === 'week' && coarse !== 'week' ? 'day' : fine;
}

/** The periods Cube groups a cumulative measure's base rows by: the finer of the window's units and the query's granularity. */
function keyedGranularity(window: RollingWindow, granularity: Unit): Unit {
  if (window.kind === 'to_date') return finer(window.granularity, granularity);
  if (window.kind === 'running_total') return granularity;
  return [window.trailing, window.leading].reduce<Unit>(
    (unit, bound) => (bound === undefined || bound === 'unbounded' ? unit : finer(unit, bound.unit)),
    granularity,
  );
}

/** A window's edges are wall times in the query's zone; the stored column is compared with them converted to UTC. */
function utcRangeConditions(time: NonNullable<RollingSource['time']>, range: WindowRange): string[] {
  return rangeConditions(time.utcExpr, range, (which) => timestampLiteral(wallToUtc(range[which]?.wall ?? 0, time.timezone)));
}

/** Which edges the windows have (the same for every period of one measure), to write the join condition once. */
function edgesOf(windows: readonly WindowRange[]): WindowRange {
  const first = windows[0] ?? {};
  return first;
}

/** The per-row value the outer aggregate reads; a count becomes 0/1 so that a window without rows sums to NULL, as in Cube. */
function rowValue(measure: Measure, input: string): string {
  if (measure.type !== 'count') return input === '*' ? '1' : input;
  return input === '*' ? '1' : `CASE WHEN ${input} IS NOT NULL THEN 1 ELSE 0 END`;
}

function reaggregate(dialect: Dialect, measure: Measure, value: string): string {
  switch (measure.type) {
    case 'count':
    case 'sum':
      return `sum(${value})`;
    case 'count_distinct':
      return `count(DISTINCT ${value})`;
    case 'count_distinct_approx':
      return dialect.countDistinctApprox(value);
    case 'avg':
    case 'min':
    case 'max':
      return `${measure.type}(${value})`;
    default:
      throw new QueryError(`Measure ${measure.path} of type ${measure.type} cannot be computed over a rolling window`);
  }
}
