import type { Dialect } from '../dialects/dialect.js';
import { QueryError } from '../errors.js';
import type { Cube, DataModel, Dimension, Measure, Member, Segment, SqlTemplate } from '../model.js';

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

const MAX_DEPTH = 64;

/** Renders model SQL templates; every cube is aliased by its own (quoted) name. */
export class Renderer {
  constructor(
    readonly model: DataModel,
    readonly dialect: Dialect,
  ) {}

  alias(cube: string): string {
    return this.dialect.quote(cube);
  }

  cube(name: string): Cube {
    const c = this.model.cubes.get(name);
    if (!c) throw new QueryError(`Cube '${name}' not found`);
    return c;
  }

  member(cube: string, name: string): Member {
    const c = this.cube(cube);
    const m = c.measures.get(name) ?? c.dimensions.get(name) ?? c.segments.get(name);
    if (!m) throw new QueryError(`'${name}' not found for path '${cube}.${name}'`);
    return m;
  }

  from(cube: Cube): string {
    const source = cube.sqlTable ?? `(${this.template(cube.sql ?? { text: '', parts: [] })})`;
    return `${source} AS ${this.alias(cube.name)}`;
  }

  template(t: SqlTemplate, leafRef?: LeafRef, depth = 0): string {
    if (depth > MAX_DEPTH) throw new QueryError('Model references are nested too deeply (is there a cycle?)');
    let out = '';
    for (const part of t.parts) {
      if (typeof part === 'string') out += part;
      else if (part.kind === 'cube') out += this.alias(part.cube);
      else {
        const m = this.member(part.cube, part.member);
        if (m.kind === 'dimension') out += `(${this.dimension(m, depth + 1)})`;
        else if (m.kind === 'segment') out += `(${this.template(m.sql, leafRef, depth + 1)})`;
        else if (!leafRef) throw new QueryError(`${m.path} is a measure and cannot be used here`);
        else out += `(${this.measure(m, leafRef, depth + 1)})`;
      }
    }
    return out;
  }

  dimension(d: Dimension, depth = 0): string {
    if (d.case) {
      const label = (l: string | SqlTemplate): string =>
        typeof l === 'string' ? `'${l.replace(/'/g, "''")}'` : this.template(l, undefined, depth + 1);
      const whens = d.case.when.map((w) => ` WHEN ${this.template(w.sql, undefined, depth + 1)} THEN ${label(w.label)}`).join('');
      return `CASE${whens}${d.case.else !== undefined ? ` ELSE ${label(d.case.else)}` : ''} END`;
    }
    if (d.type === 'geo' && d.latitude && d.longitude) {
      // Cube renders a geo dimension as `latitude || ',' || longitude`; the casts make DuckDB concatenate numbers too.
      const text = (t: SqlTemplate): string => `CAST((${this.template(t, undefined, depth + 1)}) AS VARCHAR)`;
      return `${text(d.latitude)} || ',' || ${text(d.longitude)}`;
    }
    return this.template(d.sql ?? { text: 'NULL', parts: ['NULL'] }, undefined, depth + 1);
  }

  segment(s: Segment): string {
    return this.template(s.sql);
  }

  primaryKey(cube: Cube): string | undefined {
    const pk = cube.primaryKey ? cube.dimensions.get(cube.primaryKey) : undefined;
    return pk ? this.dimension(pk) : undefined;
  }

  /** True when a measure is computed from other measures rather than aggregating rows itself. */
  isCalculated(m: Measure): boolean {
    if (m.type !== 'number' && m.type !== 'string' && m.type !== 'time' && m.type !== 'boolean') return false;
    return (
      m.sql !== undefined &&
      m.sql.parts.some((p) => typeof p !== 'string' && p.kind === 'member' && this.member(p.cube, p.member).kind === 'measure')
    );
  }

  /** The measures that aggregate rows, reached from `m` through calculated measures. */
  leaves(m: Measure, into = new Map<string, Measure>(), depth = 0): Map<string, Measure> {
    if (depth > MAX_DEPTH) throw new QueryError('Model references are nested too deeply (is there a cycle?)');
    if (!this.isCalculated(m)) {
      into.set(m.path, m);
      return into;
    }
    for (const p of m.sql?.parts ?? []) {
      if (typeof p === 'string' || p.kind !== 'member') continue;
      const ref = this.member(p.cube, p.member);
      if (ref.kind === 'measure') this.leaves(ref, into, depth + 1);
    }
    return into;
  }

  /** The row-level value a leaf measure aggregates, with the measure's own `filters` applied. */
  measureInput(m: Measure): string {
    const cube = this.cube(m.cube);
    let value: string;
    if (m.sql) value = this.template(m.sql);
    else if (m.type === 'count') value = this.primaryKey(cube) ?? (m.filters.length > 0 ? '1' : '*');
    else value = 'NULL';
    if (m.filters.length === 0) return value;
    const cond = m.filters.map((f) => `(${this.template(f)})`).join(' AND ');
    return `CASE WHEN ${cond} THEN ${value === '*' ? '1' : value} END`;
  }

  aggregate(m: Measure, input: string): string {
    switch (m.type) {
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
        return `${m.type}(${input})`;
      default:
        return input;
    }
  }

  /** A measure's SQL: leaves through `leafRef`, calculated measures composed around them. */
  measure(m: Measure, leafRef: LeafRef, depth = 0): string {
    if (!this.isCalculated(m)) return leafRef(m);
    return this.template(m.sql ?? { text: 'NULL', parts: ['NULL'] }, leafRef, depth + 1);
  }
}

/** Cubes a template pulls into the query through `{Other.member}` and `{Other}` references. */
export function referencedCubes(r: Renderer, t: SqlTemplate | undefined, into: Set<string>, depth = 0): void {
  if (!t || depth > MAX_DEPTH) return;
  for (const p of t.parts) {
    if (typeof p === 'string') continue;
    into.add(p.cube);
    if (p.kind === 'member') memberCubes(r, r.member(p.cube, p.member), into, depth + 1);
  }
}

export function memberCubes(r: Renderer, m: Member, into: Set<string>, depth = 0): void {
  into.add(m.cube);
  if (m.kind === 'segment') referencedCubes(r, m.sql, into, depth);
  else referencedCubes(r, m.sql, into, depth);
  if (m.kind === 'measure') for (const f of m.filters) referencedCubes(r, f, into, depth);
  if (m.kind === 'dimension') {
    referencedCubes(r, m.latitude, into, depth);
    referencedCubes(r, m.longitude, into, depth);
  }
  if (m.kind === 'dimension' && m.case) {
    for (const w of m.case.when) {
      referencedCubes(r, w.sql, into, depth);
      if (typeof w.label !== 'string') referencedCubes(r, w.label, into, depth);
    }
  }
  if (m.kind === 'measure' && m.type === 'count' && !m.sql) {
    const pk = r.cube(m.cube).primaryKey;
    if (pk) into.add(m.cube);
  }
}
