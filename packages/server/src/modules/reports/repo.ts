import { sql, type Kysely } from 'kysely';
import type { Database, ReportRow } from '../../store/schema.js';
import { toIso, toIsoOrNull } from '../../http/common-schemas.js';
import type { ReportView } from './schemas.js';

/** A report with the people it names, as the views need them. */
export interface ReportRecord extends ReportRow {
  owner_email: string | null;
  owner_user_name: string | null;
  owner_first_name: string | null;
  refresher_email: string | null;
  refresher_user_name: string | null;
  refresher_first_name: string | null;
}

/** Reports with their creator and last refresher joined (left joins: either may be gone). */
export function selectReports(db: Kysely<Database>) {
  return db
    .selectFrom('report')
    .leftJoin('app_user as owner', 'owner.id', 'report.created_by')
    .leftJoin('app_user as refresher', 'refresher.id', 'report.refreshed_by')
    .selectAll('report')
    .select([
      'owner.email as owner_email',
      'owner.user_name as owner_user_name',
      sql<string | null>`coalesce(owner.given_name, owner.display_name)`.as('owner_first_name'),
      'refresher.email as refresher_email',
      'refresher.user_name as refresher_user_name',
      sql<string | null>`coalesce(refresher.given_name, refresher.display_name)`.as('refresher_first_name'),
    ]);
}

const ownerOf = (id: number | null, email: string | null, userName: string | null, firstName: string | null) =>
  id === null ? null : { id, email: email ?? userName ?? '', firstName, picture: null };

/** jsonb reads back parsed on both drivers; text written by an older writer is parsed here. */
const parsed = <T>(value: unknown): T | null => (typeof value === 'string' ? (JSON.parse(value) as T) : ((value ?? null) as T | null));

/** The API's view of a report; `withSnapshot` for single-report answers (lists leave the data out). */
export function toView(row: ReportRecord, withSnapshot = false): ReportView {
  return {
    id: row.id,
    publicId: row.public_id,
    deploymentId: row.deployment_id,
    type: 'REPORT',
    name: row.name,
    title: row.title,
    description: row.description,
    source: row.source as ReportView['source'],
    jsonQuery: row.json_query,
    sqlQuery: row.sql_query,
    pivotItems: parsed(row.pivot_items),
    meta: parsed(row.meta),
    folderId: row.folder_id,
    workbookId: row.workbook_id,
    endResultCell: row.end_result_cell,
    externalWorkbookId: row.external_workbook_id,
    resultLocation: row.result_location,
    version: row.version,
    userId: row.created_by,
    createdBy: row.created_by,
    user: ownerOf(row.created_by, row.owner_email, row.owner_user_name, row.owner_first_name),
    refreshedBy: row.refreshed_by,
    refreshedByUser: ownerOf(row.refreshed_by, row.refresher_email, row.refresher_user_name, row.refresher_first_name),
    refreshedAt: toIsoOrNull(row.refreshed_at),
    refreshError: row.refresh_error,
    ...(withSnapshot ? { snapshot: parsed(row.snapshot) } : {}),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
