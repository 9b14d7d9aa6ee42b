import { sql, type Expression, type SqlBool } from 'kysely';
import type { ListOrder, Position } from '../../http/pagination.js';
import type { Executor } from '../../store/executor.js';
import { afterPosition } from '../../store/keyset.js';
import type { FolderRow } from '../../store/schema.js';
import { reportsInFolder } from '../reports/public.js';
import { workbooksInFolder } from '../workbooks/public.js';

/** A level of the tree lists by position, then id (both ascending), as the user arranged it. */
export const FOLDER_ORDER: ListOrder<FolderRow> = {
  list: 'folders',
  sort: 'position',
  kind: 'int',
  direction: 'asc',
  keyOf: (row) => row.position,
};

/** The folder table of migration 0027: the tree of a deployment's workspace. */
export class FolderRepo {
  constructor(private readonly db: Executor) {}

  find(deploymentId: number, id: number): Promise<FolderRow | undefined> {
    return this.db.selectFrom('folder').selectAll().where('deployment_id', '=', deploymentId).where('id', '=', id).executeTakeFirst();
  }

  /** Folders directly in `parentId` (null: the root) that `readable` lets through, by position then id. */
  list(deploymentId: number, parentId: number | null, readable: Expression<SqlBool>, after: Position | undefined, limit: number) {
    return this.level(deploymentId, parentId, readable)
      .selectAll('folder')
      .$call(afterPosition(FOLDER_ORDER as ListOrder<never>, { key: 'folder.position', id: 'folder.id' }, after, limit))
      .execute();
  }

  async count(deploymentId: number, parentId: number | null, readable: Expression<SqlBool>): Promise<number> {
    const row = await this.level(deploymentId, parentId, readable)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private level(deploymentId: number, parentId: number | null, readable: Expression<SqlBool>) {
    return this.db
      .selectFrom('folder')
      .where('folder.deployment_id', '=', deploymentId)
      .where('folder.parent_id', parentId === null ? 'is' : '=', parentId)
      .where(readable);
  }

  /** The position after the last sibling, so a folder created without one comes last. */
  async nextPosition(deploymentId: number, parentId: number | null): Promise<number> {
    const row = await this.db
      .selectFrom('folder')
      .select((eb) => eb.fn.max('position').as('last'))
      .where('deployment_id', '=', deploymentId)
      .where('parent_id', parentId === null ? 'is' : '=', parentId)
      .executeTakeFirst();
    const last = row?.last ?? null;
    return last === null ? 0 : Math.min(Number(last) + 1, 2_147_483_647);
  }

  insert(values: {
    account_id: number;
    deployment_id: number;
    parent_id: number | null;
    name: string;
    position: number;
    created_by: number;
  }): Promise<FolderRow> {
    return this.db
      .insertInto('folder')
      .values({ ...values, updated_by: values.created_by })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, patch: { name?: string; position?: number; parent_id?: number | null; updated_by: number }): Promise<FolderRow> {
    return this.db
      .updateTable('folder')
      .set({ ...patch, updated_at: sql`now()` as never })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Locks the folder: inserting an item into it waits (its foreign key takes a key-share lock). */
  async lockFolder(id: number): Promise<FolderRow | undefined> {
    return this.db.selectFrom('folder').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  /** What sits directly in a folder, by kind: its sub-folders here, reports and workbooks from their owners. */
  async contents(id: number): Promise<{ folders: number; reports: number; workbooks: number }> {
    const row = await this.db
      .selectFrom('folder')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('parent_id', '=', id)
      .executeTakeFirstOrThrow();
    return { folders: Number(row.n), reports: await reportsInFolder(this.db, id), workbooks: await workbooksInFolder(this.db, id) };
  }

  /** Deletes the folder; the foreign keys of migration 0027 take everything inside with it. */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('folder').where('id', '=', id).execute();
  }

  /** How many levels of folders lie below a folder (0 for one without sub-folders). */
  async height(id: number): Promise<number> {
    const { rows } = await sql<{ height: number | null }>`
      with recursive below(id, depth) as (
        select id, 0 from folder where id = ${id}
        union all
        select f.id, below.depth + 1 from folder f join below on f.parent_id = below.id where below.depth < 256
      )
      select max(depth) as height from below
    `.execute(this.db);
    return Number(rows[0]?.height ?? 0);
  }
}
