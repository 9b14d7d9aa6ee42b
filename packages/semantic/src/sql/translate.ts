import type { MetaCube } from '../meta.js';
import type { Query } from '../planner/query.js';
import type { CatalogMember } from './catalog.js';
import { notSupported } from './errors.js';
import { Params } from './literals.js';
import { parseSelect } from './pg-ast.js';
import { planStatement } from './rewrite.js';
import { arrowTypeOf, pgTypeOf } from './types.js';
/** A column of the answer: its name, its type in the schema line, and the key of its value in a load row. */
export interface TranslatedColumn {
  name: string;
  columnType: string;
  key: string;
  member: CatalogMember;
}

export interface SqlTranslation {
  query: Query;
  columns: TranslatedColumn[];
}

/**
 * Translates one SELECT over a cube or view into Cube's query format. `cubes` is the caller's
 * `/v1/meta`, so names resolve exactly as the caller may query them; anything the translation does
 * not understand is a SqlTranslationError naming it, and no SQL text is ever passed on.
 */
export async function translateSql(sql: string, cubes: readonly MetaCube[], params: readonly unknown[] = []): Promise<SqlTranslation> {
  const plan = planStatement(await parseSelect(sql), cubes, new Params(params));
  if (plan.kind !== 'pushdown') {
    throw notSupported('This SQL needs post-processing over the semantic query: only SQL that one semantic query answers is accepted here');
  }
  const columns = plan.columns.map((c) => ({
    name: c.name,
    columnType: arrowTypeOf(pgTypeOf(c.item.member)),
    key: c.item.key,
    member: c.item.member,
  }));
  return { query: plan.query, columns };
}
