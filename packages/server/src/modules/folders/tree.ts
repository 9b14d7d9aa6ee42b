import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { FolderRow } from '../../store/schema.js';
import type { FolderRef } from './public.js';

/**
 * The folder tree as access decisions read it (resource-policies): each function runs on the
 * caller's handle, so inside a transaction it sees the transaction's tree.
 */

/** The folder and every folder above it, nearest first. */
export async function folderChain(db: Executor, folderId: number | null): Promise<FolderRef[]> {
  if (folderId === null) return [];
  const { rows } = await sql<FolderRef & { depth: number }>`
    with recursive chain(id, parent_id, created_by, depth) as (
      select id, parent_id, created_by, 0 from folder where id = ${folderId}
      union all
      select f.id, f.parent_id, f.created_by, chain.depth + 1 from folder f join chain on f.id = chain.parent_id
      where chain.depth < 256
    )
    select id, parent_id, created_by, depth from chain order by depth
  `.execute(db);
  return rows.map(({ id, parent_id, created_by }) => ({ id, parent_id, created_by }));
}

/** The folders and everything below them, within one deployment. */
export async function folderSubtrees(db: Executor, deploymentId: number, roots: readonly number[]): Promise<number[]> {
  if (roots.length === 0) return [];
  const { rows } = await sql<{ id: number }>`
    with recursive below(id, depth) as (
      select id, 0 from folder where deployment_id = ${deploymentId} and id in (${sql.join(roots)})
      union
      select f.id, below.depth + 1 from folder f join below on f.parent_id = below.id where below.depth < 256
    )
    select distinct id from below
  `.execute(db);
  return rows.map((r) => r.id);
}

/** The deployment's folders a user created. */
export async function foldersCreatedBy(db: Executor, deploymentId: number, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('folder')
    .select('id')
    .where('deployment_id', '=', deploymentId)
    .where('created_by', '=', userId)
    .execute();
  return rows.map((row) => row.id);
}

/** The folders of these ids, in no particular order. */
export function foldersByIds(db: Executor, ids: readonly number[]): Promise<FolderRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('folder')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** An account's folder as a content item needs it: its deployment, creator and parent. */
export function folderOfAccount(db: Executor, accountId: number, id: number) {
  return db
    .selectFrom('folder')
    .select(['deployment_id', 'created_by', 'parent_id as folder_id'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The folders of these ids by name (ignoring case), then id, as a list shows them. */
export function foldersByName(db: Executor, ids: readonly number[]): Promise<FolderRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('folder')
    .selectAll()
    .where('id', 'in', [...ids])
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}
