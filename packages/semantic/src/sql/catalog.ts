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
  const table = findTable(cubes, name);
  if (!table) throw new SqlTranslationError('undefined_table', `Table ${name} does not exist: no cube or view of that name`);
  return table;
}

/**
 * The cube or view named `name`: an exact match first, then one regardless of case, since BI tools
 * quote names as they list them and people type them unquoted (which PostgreSQL folds to lower case).
 */
export function findTable(cubes: readonly MetaCube[], name: string): CatalogTable | undefined {
  const cube = cubes.find((c) => c.name === name) ?? cubes.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!cube) return undefined;
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
