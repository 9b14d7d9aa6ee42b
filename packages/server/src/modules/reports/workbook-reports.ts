import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { ReportRow } from '../../store/schema.js';
import { newPublicId } from './validate.js';

/**
 * The reports a workbook holds, as its dashboards and its copies need them. Each takes the store's
 * handle (or the caller's), so a workbook's copy and its reports' copies commit together.
 */

/** The reports among `ids` that belong to the workbook. */
export async function reportIdsOfWorkbook(db: Executor, workbookId: number, ids: number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('report').select('id').where('workbook_id', '=', workbookId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The workbook's reports in id order, or only those among `ids`. */
export function reportsOfWorkbook(db: Executor, workbookId: number, ids?: number[]): Promise<ReportRow[]> {
  let query = db.selectFrom('report').selectAll().where('workbook_id', '=', workbookId);
  if (ids) {
    if (ids.length === 0) return Promise.resolve([]);
    query = query.where('id', 'in', ids);
  }
  return query.orderBy('id').execute();
}

/**
 * Copies the source workbook's reports into another (new ids and public ids, `userId` as creator,
 * no refresh state: the copy refreshes on its own). Answers the new id of each copied report.
 */
export async function copyReportsOfWorkbook(
  db: Executor,
  sourceWorkbookId: number,
  target: { workbookId: number; folderId: number | null },
  userId: number | null,
): Promise<Map<number, number>> {
  const reports = await reportsOfWorkbook(db, sourceWorkbookId);
  const moved = new Map<number, number>();
  for (const report of reports) {
    const { id, public_id: _p, workbook_id: _w, folder_id: _f, created_at: _c, updated_at: _u, ...rest } = report;
    const inserted = await db
      .insertInto('report')
      .values({
        ...rest,
        pivot_items: rest.pivot_items === null ? null : JSON.stringify(rest.pivot_items),
        meta: rest.meta === null ? null : JSON.stringify(rest.meta),
        snapshot: null,
        refresh_error: null,
        refreshed_by: null,
        refreshed_at: null,
        version: 1,
        public_id: newPublicId(),
        workbook_id: target.workbookId,
        folder_id: target.folderId,
        created_by: userId,
        updated_by: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    moved.set(id, inserted.id);
  }
  return moved;
}

/** How many reports name the folder as theirs, for the folder's deletion. */
export async function reportsInFolder(db: Executor, folderId: number): Promise<number> {
  const row = await db
    .selectFrom('report')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('folder_id', '=', folderId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An account's report as a content item needs it: its deployment, creator, folder and workbook. */
export function reportOfAccount(db: Executor, accountId: number, id: number) {
  return db
    .selectFrom('report')
    .select(['deployment_id', 'created_by', 'folder_id', 'workbook_id', 'embed_tenant_id'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A report of the deployment as the workspace moves it: where it sits and who made it. */
export function reportInDeployment(db: Executor, deploymentId: number, id: number) {
  return db
    .selectFrom('report')
    .select(['id', 'deployment_id', 'folder_id', 'created_by', 'embed_tenant_id'])
    .where('deployment_id', '=', deploymentId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Puts the report into a folder (null: the root); the target is checked by the caller. */
export async function moveReport(db: Executor, deploymentId: number, id: number, folderId: number | null, userId: number): Promise<void> {
  await db.updateTable('report').set({ folder_id: folderId, updated_by: userId, updated_at: sql<Date>`now()` }).where('deployment_id', '=', deploymentId)
    .where('id', '=', id).execute();
}
