import type { Dialect } from '../dialects/dialect.js';
import { QueryError } from '../errors.js';
import type { Caller, DataModel, Dimension, Measure, Member } from '../model.js';
import { dimensionAnnotation, measureAnnotation, segmentAnnotation, timeDimensionAnnotation, type Annotation } from './annotation.js';
import { selectSql, type DimensionColumn, type MeasureColumn } from './assemble.js';
import { boundFrom, boundTo, formatWall, wallToUtc } from './dates.js';
import { filterMembers, renderFilter, type FilterContext, type FilterTarget } from './filters.js';
import { buildJoinTree, isMultiplied } from './joins.js';
import { EVERYONE } from './policy.js';
import { policyConditions } from './policy-sql.js';
import { normalizeQuery, type Granularity, type NormalizedQuery, type Query } from './query.js';
import { relativeRange } from './relative-dates.js';
import { memberCubes, Params, Renderer } from './render.js';
import { resolveDimension, resolveMeasure, resolveMember, resolveSegment, type Resolved } from './resolve.js';

export interface PlanOptions {
  readonly dialect: Dialect;
  readonly caller?: Caller;
  /** The instant relative date ranges are computed from; defaults to now. */
  readonly now?: Date;
}

/** How a result column maps back to the member names of the load response. */
export interface ResultColumn {
  readonly alias: string;
  readonly keys: readonly string[];
  readonly type: string;
  readonly kind: 'measure' | 'dimension' | 'timeDimension';
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

const MULTIPLIABLE = new Set(['count', 'sum', 'avg', 'number', 'string', 'time', 'boolean']);

/** Cube query in, SQL and bound parameters out. Throws QueryError for anything the caller got wrong. */
export function planQuery(model: DataModel, input: Query | unknown, options: PlanOptions): QueryPlan {
  const query = normalizeQuery(input);
  const caller = options.caller ?? EVERYONE;
  const dialect = options.dialect;
  const r = new Renderer(model, dialect);
  const params = new Params(dialect);
  const tz = query.timezone;
  let zone: string | undefined;
  const local = (expr: string): string => (tz === 'UTC' ? expr : dialect.convertTz(expr, (zone ??= params.add(tz))));

  const measures = unique(query.measures).map((p) => resolveMeasure(model, p, caller));
  const dimensions = unique(query.dimensions).map((p) => resolveDimension(model, p, caller));
  const segments = unique(query.segments).map((p) => resolveSegment(model, p, caller));
  const timeDimensions = query.timeDimensions.map((td) => {
    const res = resolveDimension(model, td.dimension, caller);
    if (res.member.type !== 'time') throw new QueryError(`Time dimension '${td.dimension}' must be of type time, not ${res.member.type}`);
    return { td, res };
  });
  const filterResolved = new Map<string, Resolved>();
  for (const f of query.filters) for (const path of filterMembers(f)) filterResolved.set(path, resolveMember(model, path, caller));

  const used: Resolved[] = [...measures, ...dimensions, ...timeDimensions.map((t) => t.res), ...segments, ...filterResolved.values()];
  const policy = policyConditions(model, used, caller);
  const cubes = new Set<string>();
  for (const u of used) memberCubes(r, u.member, cubes);
  for (const m of policy.members) memberCubes(r, m, cubes);
  const paths = [...used.flatMap((u) => (u.joinPath ? [u.joinPath] : [])), ...(query.joinHints ?? [])];
  for (const p of paths) for (const c of p) cubes.add(c);
  const tree = buildJoinTree(model, [...cubes], dedupePaths(paths));

  // Dimension columns: plain dimensions, then time dimensions that have a granularity.
  const columns: ResultColumn[] = [];
  const dimColumns: DimensionColumn[] = [];
  const annotation: Annotation = { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} };
  const columnOf = new Map<string, number>();
  const dimValue = (d: Dimension): string => (d.type === 'time' ? local(r.dimension(d)) : r.dimension(d));
  for (const d of dimensions) {
    const alias = aliasOf(d.path);
    columnOf.set(d.path, dimColumns.length);
    dimColumns.push({ alias, expr: dimValue(d.member) });
    columns.push({ alias, keys: [d.path], type: d.member.type, kind: 'dimension' });
    annotation.dimensions[d.path] = dimensionAnnotation(d);
  }
  const seenTd = new Set<string>();
  for (const { td, res } of timeDimensions) {
    if (!td.granularity) continue;
    const key = `${td.dimension}.${td.granularity}`;
    if (seenTd.has(key)) continue;
    seenTd.add(key);
    const alias = aliasOf(key);
    if (!columnOf.has(td.dimension)) columnOf.set(td.dimension, dimColumns.length);
    columnOf.set(key, dimColumns.length);
    dimColumns.push({ alias, expr: dialect.truncate(td.granularity as Granularity, dimValue(res.member)) });
    // Cube also answers under the bare name unless the query lists the dimension itself.
    const keys = query.dimensions.includes(td.dimension) ? [key] : [key, td.dimension];
    columns.push({ alias, keys, type: 'time', kind: 'timeDimension' });
    annotation.timeDimensions[key] = timeDimensionAnnotation(res, td.granularity);
    if (!query.dimensions.includes(td.dimension)) annotation.timeDimensions[td.dimension] = dimensionAnnotation(res);
  }
  const measureColumns: MeasureColumn[] = measures.map((m, i) => {
    const alias = aliasOf(m.path);
    columnOf.set(m.path, dimColumns.length + i);
    columns.push({ alias, keys: [m.path], type: annotationType(m), kind: 'measure' });
    annotation.measures[m.path] = measureAnnotation(m);
    return { alias, measure: m.member };
  });
  for (const s of segments) annotation.segments[s.path] = segmentAnnotation(s);

  // WHERE: segments, date ranges, dimension filters, access policies. HAVING: measure filters.
  const targetOfMember = (m: Member, leafRef?: (m: Measure) => string): FilterTarget => {
    if (m.kind === 'dimension')
      // A geo value is the text `latitude,longitude`, filtered as a string.
      return { sql: dimValue(m), rawTimeSql: m.type === 'time' ? r.dimension(m) : undefined, type: m.type === 'geo' ? 'string' : m.type };
    if (m.kind === 'segment') return { sql: r.segment(m), type: 'boolean' };
    const conditions = m.filters.length > 0 ? m.filters.map((f) => `(${r.template(f)})`).join(' AND ') : '1 = 1';
    if (!leafRef) return { sql: '', type: 'number', measureConditions: conditions };
    return { sql: r.measure(m, leafRef), type: 'number', measureConditions: conditions };
  };
  const target =
    (leafRef: ((m: Measure) => string) | undefined) =>
    (path: string): FilterTarget =>
      targetOfMember((filterResolved.get(path) ?? resolveMember(model, path, caller)).member, leafRef);
  const ctx = (leafRef?: (m: Measure) => string): FilterContext => ({ dialect, params, timezone: tz, target: target(leafRef) });
  const where: string[] = segments.map((s) => r.segment(s.member));
  for (const { td, res } of timeDimensions) {
    if (!td.dateRange) continue;
    const [from, to] =
      typeof td.dateRange === 'string'
        ? relativeRange(td.dateRange, tz, (options.now ?? new Date()).getTime())
        : [boundFrom(td.dateRange[0]), boundTo(td.dateRange[1])];
    const col = r.dimension(res.member);
    const p = (wall: number): string => dialect.castParam(params.add(formatWall(wallToUtc(wall, tz))), 'timestamp');
    where.push(`${col} >= ${p(from)} AND ${col} <= ${p(to)}`);
  }
  const havingFilters = query.filters.filter((f) => {
    const kinds = new Set(
      filterMembers(f).map((p) => {
        const m = filterResolved.get(p)?.member;
        return m?.kind === 'measure' && !isMeasureFilterOperator(f, p) ? 'measure' : 'dimension';
      }),
    );
    if (kinds.size > 1) throw new QueryError('You cannot use dimension and measure in same condition');
    return kinds.has('measure');
  });
  for (const f of query.filters) if (!havingFilters.includes(f)) where.push(renderFilter(f, ctx()));
  where.push(...policy.render((m) => targetOfMember(m), ctx()));
  // Rendered once per shape; the same placeholders are reused, so params stay in step.
  const havingCache = new Map<unknown, string[]>();
  const having = (leafRef: (m: Measure) => string): string[] => {
    let out = havingCache.get(leafRef);
    if (!out) {
      out = havingFilters.map((f) => renderFilter(f, ctx(leafRef)));
      havingCache.set(leafRef, out);
    }
    return out;
  };

  const extraLeaves: Measure[] = [];
  for (const f of havingFilters)
    for (const p of filterMembers(f)) {
      const m = filterResolved.get(p)?.member;
      if (m?.kind === 'measure') extraLeaves.push(...r.leaves(m).values());
    }
  const multiplied = new Set<string>();
  for (const m of [...measures.map((x) => x.member), ...extraLeaves]) {
    for (const leaf of r.leaves(m).values()) {
      if (MULTIPLIABLE.has(leaf.type) && isMultiplied(leaf.cube, tree.joins)) multiplied.add(leaf.path);
    }
  }
  const body = selectSql({
    renderer: r,
    tree,
    dimensions: dimColumns,
    measures: measureColumns,
    where,
    having,
    ungrouped: query.ungrouped === true,
    multiplied,
    extraLeaves,
  });

  const order = query.order.length > 0 ? query.order : defaultOrder(query);
  const orderBy = order.map((o) => {
    const idx = columnOf.get(o.id);
    if (idx === undefined) throw new QueryError(`Order member '${o.id}' is not part of the query`);
    return `${idx + 1} ${o.desc ? 'DESC' : 'ASC'}`;
  });
  const bodyParams = params.values.length;
  const limit = ` LIMIT ${dialect.castParam(params.add(query.limit), 'integer')}`;
  const offset = query.offset ? ` OFFSET ${dialect.castParam(params.add(query.offset), 'integer')}` : '';
  const sql = `${body}${orderBy.length > 0 ? `\nORDER BY ${orderBy.join(', ')}` : ''}\n${limit.trim()}${offset}`;
  return {
    sql,
    params: params.values,
    ...(query.total
      ? {
          total: {
            sql: `SELECT count(*) ${dialect.quote('total')} FROM (\n${body}\n) AS ${dialect.quote('total_rows')}`,
            params: params.values.slice(0, bodyParams),
          },
        }
      : {}),
    annotation,
    columns,
    query: { ...query, order },
  };
}

function isMeasureFilterOperator(f: unknown, path: string): boolean {
  const leaves: Array<{ member: string; operator: string }> = [];
  const walk = (x: unknown): void => {
    const o = x as Record<string, unknown>;
    if (typeof o['member'] === 'string') leaves.push(o as { member: string; operator: string });
    for (const k of ['and', 'or']) if (Array.isArray(o[k])) (o[k] as unknown[]).forEach(walk);
  };
  walk(f);
  return leaves.some((l) => l.member === path && l.operator === 'measureFilter');
}

function defaultOrder(q: NormalizedQuery): Array<{ id: string; desc: boolean }> {
  const td = q.timeDimensions.find((t) => t.granularity);
  if (td) return [{ id: td.dimension, desc: false }];
  const [m] = q.measures;
  const [d] = q.dimensions;
  if (m !== undefined && d !== undefined) return [{ id: m, desc: true }];
  if (d !== undefined) return [{ id: d, desc: false }];
  return [];
}

function annotationType(m: Resolved<Measure>): string {
  return m.member.type === 'string' || m.member.type === 'time' || m.member.type === 'boolean' ? m.member.type : 'number';
}

function aliasOf(key: string): string {
  return key.replace(/\./g, '__');
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}

function dedupePaths(paths: ReadonlyArray<readonly string[]>): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const p of paths) {
    const key = p.join('.');
    if (!seen.has(key)) {
      seen.add(key);
      out.push([...p]);
    }
  }
  return out;
}
