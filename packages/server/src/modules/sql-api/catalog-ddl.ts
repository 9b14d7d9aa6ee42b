import { pgTypeOf, type MetaCube } from '@plinth/semantic';

/** A double-quoted PostgreSQL identifier, exactly as named. */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** A string literal with the standard escaping (standard_conforming_strings is on). */
export const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The empty tables that mirror what the caller may see of a model: one per cube or view, one
 * column per visible member (its short name, its PostgreSQL type), with their descriptions as
 * comments, as Cube's SQL API shows them; segments are boolean columns, and `__user` and
 * `__cubeJoinField` are there as in Cube. BI tools browse these through pg_catalog and
 * information_schema, so the catalog is PostgreSQL's own.
 */
export function catalogDdl(cubes: readonly MetaCube[]): string {
  const statements: string[] = [];
  for (const cube of cubes) {
    const table = `public.${quoteIdent(cube.name)}`;
    const columns: string[] = [];
    const comments: string[] = [];
    const seen = new Set<string>();
    const add = (name: string, type: string, description: string | undefined) => {
      if (seen.has(name)) return;
      seen.add(name);
      columns.push(`${quoteIdent(name)} ${type}`);
      if (description) comments.push(`comment on column ${table}.${quoteIdent(name)} is ${quoteLiteral(description)};`);
    };
    const short = (name: string) => name.slice(cube.name.length + 1);
    for (const member of [...cube.dimensions, ...cube.measures]) {
      add(short(member.name), pgTypeOf(member).name, member.description ?? member.title);
    }
    for (const segment of cube.segments) add(short(segment.name), 'bool', segment.description ?? segment.title);
    add('__user', 'text', 'The user to run the query as (not supported: a credential decides who asks)');
    add('__cubeJoinField', 'text', 'Joins this table to another in a CROSS JOIN, along the joins of the model');
    statements.push(`create table ${table} (${columns.join(', ')});`);
    const description = cube.description ?? cube.title;
    if (description) statements.push(`comment on table ${table} is ${quoteLiteral(description)};`);
    statements.push(...comments);
  }
  return statements.join('\n');
}

/**
 * `MEASURE(x)` as an aggregate the catalog's PostgreSQL knows, so a statement using it parses and
 * plans there like any other (the catalog only classifies such a statement; the translation runs it).
 */
export const MEASURE_FUNCTION = `
  create function pg_catalog.measure_step(anyelement, anyelement) returns anyelement
    language sql immutable as 'select $2';
  create aggregate pg_catalog.measure(anyelement) (sfunc = pg_catalog.measure_step, stype = anyelement);
`;
