import type { Kysely } from 'kysely';
import type { Database, ReportRow } from '../../store/schema.js';
import { toIso, toIsoOrNull } from '../../http/common-schemas.js';
import type { ReportView } from './schemas.js';
import { personOf, type Person } from '../users/public.js';

/** A report with the people it names, as the views need them. */
export interface ReportRecord extends ReportRow {
  owner: Person | null;
  refresher: Person | null;
}

/** Reports with their creator and last refresher (null when either is gone), as users shows them. */
export function selectReports(db: Kysely<Database>) {
  return db
    .selectFrom('report')
    .selectAll('report')
    .select((eb) => [personOf(eb.ref('report.created_by')).as('owner'), personOf(eb.ref('report.refreshed_by')).as('refresher')]);
}

const ownerOf = (id: number | null, person: Person | null) =>
  id === null ? null : { id, email: person?.email ?? person?.user_name ?? '', firstName: person?.first_name ?? null, picture: null };

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
    user: ownerOf(row.created_by, row.owner),
    refreshedBy: row.refreshed_by,
    refreshedByUser: ownerOf(row.refreshed_by, row.refresher),
    refreshedAt: toIsoOrNull(row.refreshed_at),
    refreshError: row.refresh_error,
    ...(withSnapshot ? { snapshot: parsed(row.snapshot) } : {}),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
