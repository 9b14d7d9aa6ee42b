import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../store/executor.js';

/**
 * Workbooks and dashboards as access decisions read them (resource-policies): where each sits and
 * who made it. A dashboard is its workbook's: it shares the workbook's creator and folder.
 */

export function workbookById(db: Executor, id: number) {
  return db
    .selectFrom('workbook')
    .select(['id', 'deployment_id', 'created_by', 'folder_id', 'embed_tenant_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function workbookOfAccount(db: Executor, accountId: number, id: number) {
  return db
    .selectFrom('workbook')
    .select(['deployment_id', 'created_by', 'folder_id', 'embed_tenant_id'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function dashboardOfAccount(db: Executor, accountId: number, id: number) {
  return db
    .selectFrom('dashboard')
    .innerJoin('workbook', 'workbook.id', 'dashboard.workbook_id')
    .select([
      'dashboard.deployment_id',
      'workbook.created_by',
      'workbook.folder_id',
      'workbook.id as workbook_id',
      'workbook.embed_tenant_id',
    ])
    .where('dashboard.account_id', '=', accountId)
    .where('dashboard.id', '=', id)
    .executeTakeFirst();
}

/** The whole workbook row (a policy inherited from it reports it as its source). */
export function workbookRow(db: Executor, id: number) {
  return db.selectFrom('workbook').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * The ids of the workbooks `condition` lets through, as a subquery: a report's read scope includes
 * the reports of the workbooks the caller may read, in the list's own query. `condition` refers to
 * the table as `workbook`.
 */
export function workbookIdsWhere(condition: RawBuilder<boolean>): RawBuilder<number> {
  return sql<number>`(select workbook.id from workbook where ${condition})`;
}

/** A workbook of the deployment as the workspace moves it: where it sits and who made it. */
export function workbookInDeployment(db: Executor, deploymentId: number, id: number) {
  return db
    .selectFrom('workbook')
    .select(['id', 'deployment_id', 'folder_id', 'created_by', 'embed_tenant_id'])
    .where('deployment_id', '=', deploymentId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Puts the workbook into a folder (null: the root); the target is checked by the caller. */
export async function moveWorkbook(db: Executor, deploymentId: number, id: number, folderId: number | null, userId: number): Promise<void> {
  await db
    .updateTable('workbook')
    .set({ folder_id: folderId, updated_by: userId, updated_at: sql<Date>`now()` })
    .where('deployment_id', '=', deploymentId)
    .where('id', '=', id)
    .execute();
}
