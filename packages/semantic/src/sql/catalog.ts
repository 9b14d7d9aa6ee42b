import type { MetaCube, MetaMember } from '../meta.js';
import { SqlTranslationError } from './errors.js';

export type MemberKind = 'measure' | 'dimension' | 'segment';

/** A column of a SQL table: one member of the cube or view, as `/v1/meta` shows it to this caller. */
export interface CatalogMember {
  /** The full member name, `cube.member`. */
  name: string;
  kind: MemberKind;
  type: string;
  /** A measure's aggregation (`count`, `sum`, `count_distinct`, ...), for `SUM(x)`-style columns. */
  aggType?: string;
}

/** A cube or view as a SQL table: its members by their short (column) names. */
export interface CatalogTable {
  name: string;
  members: Map<string, CatalogMember>;
}

/**
 * The table a query reads, built from the caller's `/v1/meta`: a member the caller's access policy
 * hides is not a column, so the SQL names only what the caller may query (the load re-checks it).
 */
export function tableOf(cubes: readonly MetaCube[], name: string): CatalogTable {
  // The parser drops the quotes of a table name: an exact match first, then one regardless of case.
  const cube = cubes.find((c) => c.name === name) ?? cubes.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!cube) throw new SqlTranslationError('undefined_table', `Table ${name} does not exist: no cube or view of that name`);
  const members = new Map<string, CatalogMember>();
  const add = (member: MetaMember, kind: MemberKind) => {
    const short = member.name.slice(cube.name.length + 1);
    members.set(short, {
      name: member.name,
      kind,
      type: member.type,
      ...(member.aggType !== undefined ? { aggType: member.aggType } : {}),
    });
  };
  cube.measures.forEach((m) => add(m, 'measure'));
  cube.dimensions.forEach((m) => add(m, 'dimension'));
  cube.segments.forEach((m) => add(m, 'segment'));
  return { name: cube.name, members };
}

const COUNT_TYPES = new Set(['count', 'count_distinct', 'count_distinct_approx']);

/**
 * The column type the schema line reports, in the Arrow names Cube's SQL API uses: counts are
 * integers, other numbers floats, times nanosecond timestamps.
 */
export function columnTypeOf(member: CatalogMember): string {
  if (member.kind === 'measure' && member.type === 'number') return COUNT_TYPES.has(member.aggType ?? '') ? 'Int64' : 'Float64';
  switch (member.type) {
    case 'number':
      return 'Float64';
    case 'time':
      return 'Timestamp(Nanosecond, None)';
    case 'boolean':
      return 'Boolean';
    default:
      return 'Utf8';
  }
}
