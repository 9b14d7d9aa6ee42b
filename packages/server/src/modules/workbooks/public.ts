import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../../store/executor.js';

/** What other modules may use of workbooks beyond the service: how many a folder holds, for the folder's deletion. */
export async function workbooksInFolder(db: Executor, folderId: number): Promise<number> {
  const row = await db
    .selectFrom('workbook')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('folder_id', '=', folderId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * What notifications need of a dashboard to run it: its public id (the embed page's) and title;
 * undefined when it is gone.
 */
export function dashboardForRendering(db: Executor, dashboardId: number) {
  return db.selectFrom('dashboard').select(['public_id', 'title']).where('id', '=', dashboardId).executeTakeFirst();
}

/**
 * The ids of the dashboards whose workbooks `condition` lets through, as a subquery: a list of
 * things about dashboards (notifications) keeps those of the workbooks the caller may read.
 * `condition` refers to the table as `workbook`.
 */
export function dashboardIdsWhere(condition: RawBuilder<boolean>): RawBuilder<number> {
  return sql<number>`(select dashboard.id from dashboard join workbook on workbook.id = dashboard.workbook_id where ${condition})`;
}

export {
  dashboardOfAccount,
  moveWorkbook,
  workbookById,
  workbookIdsWhere,
  workbookInDeployment,
  workbookOfAccount,
  workbookRow,
} from './content.js';

/**
 * The workbooks of a deployment that `readable` lets through, as the workspace lists them: one
 * branch of its union, so every owner gives the same columns in the same order (null where a workbook
 * has none) and the workspace pages all of them in one statement.
 */
export function workspaceWorkbooks(db: Executor, deploymentId: number, readable: Expression<SqlBool>) {
  return db
    .selectFrom('workbook')
    .select([
      sql<string>`cast('WORKBOOK' as text)`.as('type'),
      sql<number>`1`.as('rank'),
      'workbook.id',
      'workbook.name',
      'workbook.deployment_id',
      sql.ref<number | null>('workbook.folder_id').as('folder_id'),
      sql<number | null>`null::integer`.as('position'),
      sql.ref<Record<string, unknown> | null>('workbook.meta').as('meta'),
      sql<string | null>`null::text`.as('title'),
      sql<string | null>`null::text`.as('description'),
      sql<number | null>`null::integer`.as('workbook_id'),
      sql<string | null>`null::text`.as('public_id'),
      'workbook.created_by',
      'workbook.updated_by',
      'workbook.created_at',
      'workbook.updated_at',
    ])
    .where('workbook.deployment_id', '=', deploymentId)
    .where(readable);
}
