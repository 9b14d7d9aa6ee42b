import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../store/executor.js';
/** What other modules may use of reports beyond the service: a workbook's reports, read and copied on the caller's handle. */
export {
  copyReportsOfWorkbook,
  moveReport,
  reportIdsOfWorkbook,
  reportInDeployment,
  reportOfAccount,
  reportsInFolder,
  reportsOfWorkbook,
} from './workbook-reports.js';
export { newPublicId } from './validate.js';

/**
 * The reports of a deployment that `readable` lets through, as the workspace lists them: one
 * branch of its union, so every owner gives the same columns in the same order (null where a report
 * has none) and the workspace pages all of them in one statement.
 */
export function workspaceReports(db: Executor, deploymentId: number, readable: Expression<SqlBool>) {
  return db
    .selectFrom('report')
    .select([
      sql<string>`cast('REPORT' as text)`.as('type'),
      sql<number>`1`.as('rank'),
      'report.id',
      'report.name',
      'report.deployment_id',
      sql.ref<number | null>('report.folder_id').as('folder_id'),
      sql<number | null>`null::integer`.as('position'),
      sql<Record<string, unknown> | null>`null::jsonb`.as('meta'),
      sql.ref<string | null>('report.title').as('title'),
      sql.ref<string | null>('report.description').as('description'),
      sql.ref<number | null>('report.workbook_id').as('workbook_id'),
      sql.ref<string | null>('report.public_id').as('public_id'),
      'report.created_by',
      'report.updated_by',
      'report.created_at',
      'report.updated_at',
    ])
    .where('report.deployment_id', '=', deploymentId)
    .where(readable);
}
