import type { Dialect } from '../dialects/dialect.js';
import { QueryError } from '../errors.js';
import type { Measure } from '../model.js';
import type { JoinTree } from './joins.js';
import type { Renderer } from './render.js';

export interface DimensionColumn {
  readonly alias: string;
  readonly expr: string;
}
export interface MeasureColumn {
  readonly alias: string;
  readonly measure: Measure;
}

/** Everything needed to write the SQL once members, joins and conditions are decided. */
export interface SelectSpec {
  readonly renderer: Renderer;
  readonly tree: JoinTree;
  readonly dimensions: readonly DimensionColumn[];
  readonly measures: readonly MeasureColumn[];
  readonly where: readonly string[];
  /** Measure conditions, given how leaf measures are referenced in the current shape. */
  readonly having: (leafRef: (leaf: Measure) => string) => string[];
  readonly ungrouped: boolean;
  /** Leaf measures whose cube is fanned out by a one-to-many join in the tree. */
  readonly multiplied: ReadonlySet<string>;
  /** Leaf measures used by filters but not selected. */
  readonly extraLeaves: readonly Measure[];
}

function fromClause(s: SelectSpec): string {
  const r = s.renderer;
  const lines = [`FROM ${r.from(r.cube(s.tree.root))}`];
  for (const j of s.tree.joins) lines.push(`LEFT JOIN ${r.from(r.cube(j.to))} ON ${r.template(j.sql)}`);
  return lines.join('\n');
}

const whereClause = (conds: readonly string[], keyword = 'WHERE'): string =>
  conds.length > 0 ? `\n${keyword} ${conds.map((c) => `(${c})`).join(' AND ')}` : '';

const groupBy = (n: number): string => (n > 0 ? `\nGROUP BY ${Array.from({ length: n }, (_, i) => i + 1).join(', ')}` : '');

/** One SELECT with GROUP BY: right whenever no measure's rows are repeated by a join. */
function singleStage(s: SelectSpec): string {
  const r = s.renderer;
  const leaf = s.ungrouped
    ? (m: Measure): string => {
        const input = r.measureInput(m);
        return m.type === 'count' || m.type === 'count_distinct'
          ? `CASE WHEN ${input === '*' ? '1' : input} IS NOT NULL THEN 1 ELSE 0 END`
          : input;
      }
    : (m: Measure): string => r.aggregate(m, r.measureInput(m));
  const q = r.dialect.quote.bind(r.dialect);
  const select = [
    ...s.dimensions.map((d) => `${d.expr} ${q(d.alias)}`),
    ...s.measures.map((m) => `${r.measure(m.measure, leaf)} ${q(m.alias)}`),
  ];
  return (
    `SELECT\n  ${select.join(',\n  ')}\n${fromClause(s)}${whereClause(s.where)}` +
    (s.ungrouped ? '' : `${groupBy(s.dimensions.length)}${whereClause(s.having(leaf), 'HAVING')}`)
  );
}

/**
 * Fan-out safe shape, as Cube does it: regular measures aggregate over the joined rows; measures of a
 * multiplied cube aggregate over the distinct (dimensions, primary key) rows of that cube; the parts
 * are joined on the dimensions.
 */
function multiStage(s: SelectSpec): string {
  const r = s.renderer;
  const d: Dialect = r.dialect;
  const q = d.quote.bind(d);
  const leaves = new Map<string, Measure>();
  for (const m of [...s.measures.map((x) => x.measure), ...s.extraLeaves]) for (const [k, v] of r.leaves(m)) leaves.set(k, v);
  const regular = [...leaves.values()].filter((m) => !s.multiplied.has(m.path));
  const byCube = new Map<string, Measure[]>();
  for (const m of leaves.values()) {
    if (!s.multiplied.has(m.path)) continue;
    byCube.set(m.cube, [...(byCube.get(m.cube) ?? []), m]);
  }
  const leafColumn = new Map<string, string>();
  const parts: string[] = [];
  const dimSelect = s.dimensions.map((x, i) => `${x.expr} ${q(`d${i}`)}`);
  const from = fromClause(s);
  const where = whereClause(s.where);
  if (regular.length > 0 || byCube.size === 0) {
    const alias = `q_${parts.length}`;
    const cols = regular.map((m, i) => {
      leafColumn.set(m.path, `${q(alias)}.${q(`m${i}`)}`);
      return `${r.aggregate(m, r.measureInput(m))} ${q(`m${i}`)}`;
    });
    parts.push(`SELECT\n  ${[...dimSelect, ...cols].join(',\n  ')}\n${from}${where}${groupBy(s.dimensions.length)}`);
  }
  for (const [cubeName, measures] of byCube) {
    const cube = r.cube(cubeName);
    const pk = r.primaryKey(cube);
    if (!pk) {
      throw new QueryError(
        `Cube ${cubeName} needs a primary key: its measures ${measures.map((m) => m.path).join(', ')} are repeated by a one-to-many join in this query and can only be aggregated correctly per primary key`,
      );
    }
    const alias = `q_${parts.length}`;
    const inputs = measures.map((m, i) => {
      if (m.type === 'number' || m.type === 'string' || m.type === 'time' || m.type === 'boolean') {
        throw new QueryError(
          `Measure ${m.path} aggregates in its own SQL and cannot be computed across the one-to-many join of this query; define it from sum/count/avg measures instead`,
        );
      }
      return `${r.measureInput(m)} ${q(`v${i}`)}`;
    });
    const keys = `SELECT DISTINCT\n  ${[...dimSelect, `${pk} ${q('pk')}`, ...inputs].join(',\n  ')}\n${from}${where}`;
    const cols = measures.map((m, i) => {
      leafColumn.set(m.path, `${q(alias)}.${q(`m${i}`)}`);
      return `${r.aggregate(m, q(`v${i}`))} ${q(`m${i}`)}`;
    });
    const dimCols = s.dimensions.map((_, i) => q(`d${i}`));
    parts.push(`SELECT\n  ${[...dimCols, ...cols].join(',\n  ')}\nFROM (\n${keys}\n) AS ${q('keys')}${groupBy(s.dimensions.length)}`);
  }
  const leafRef = (m: Measure): string => {
    const col = leafColumn.get(m.path);
    if (!col) throw new QueryError(`Internal error: measure ${m.path} was not planned`);
    return col;
  };
  const joined = parts.map((p, i) => {
    const sub = `(\n${p}\n) AS ${q(`q_${i}`)}`;
    if (i === 0) return `FROM ${sub}`;
    if (s.dimensions.length === 0) return `CROSS JOIN ${sub}`;
    const on = s.dimensions.map((_, k) => `${q('q_0')}.${q(`d${k}`)} IS NOT DISTINCT FROM ${q(`q_${i}`)}.${q(`d${k}`)}`).join(' AND ');
    return `INNER JOIN ${sub} ON ${on}`;
  });
  const select = [
    ...s.dimensions.map((x, i) => `${q('q_0')}.${q(`d${i}`)} ${q(x.alias)}`),
    ...s.measures.map((m) => `${r.measure(m.measure, leafRef)} ${q(m.alias)}`),
  ];
  return `SELECT\n  ${select.join(',\n  ')}\n${joined.join('\n')}${whereClause(s.having(leafRef))}`;
}

export function selectSql(s: SelectSpec): string {
  return s.multiplied.size > 0 && !s.ungrouped ? multiStage(s) : singleStage(s);
}
