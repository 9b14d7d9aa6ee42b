import type { Static } from '@sinclair/typebox';
import { toIso } from '../../http/common-schemas.js';
import type { ReportRow, WorkbookRow } from '../../store/schema.js';
import type { Dashboard, DashboardConfig, ReportSnapshot } from './dashboard-schemas.js';
import type { PublishedDashboard } from './repo.js';
import type { Workbook } from './schemas.js';

export type DashboardView = Static<typeof Dashboard>;
export type WorkbookView = Static<typeof Workbook>;
type Config = Static<typeof DashboardConfig>;

/** JSON columns come back parsed from PostgreSQL and as text from some drivers: read either. */
export const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

export function dashboardView({ dashboard, version }: PublishedDashboard): DashboardView {
  return {
    id: dashboard.id,
    publicId: dashboard.public_id,
    deploymentId: dashboard.deployment_id,
    workbookId: dashboard.workbook_id,
    status: dashboard.status,
    allowEmbed: dashboard.allow_embed,
    config: json<Config>(version.config),
    versionNumber: version.version_number,
    versionId: version.id,
    reportSnapshots: json<Static<typeof ReportSnapshot>[]>(version.report_snapshots),
    title: version.title ?? dashboard.title,
    description: version.description ?? dashboard.description,
    createdBy: dashboard.created_by,
  };
}

export function workbookView(row: WorkbookRow, published: PublishedDashboard | undefined): WorkbookView {
  const dashboard = published ? dashboardView(published) : null;
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    folderId: row.folder_id,
    name: row.name,
    type: 'WORKBOOK',
    meta: json(row.meta) ?? {},
    calculatedFields: json(row.calculated_fields) ?? {},
    dashboardDraft: json<Config | null>(row.dashboard_draft) ?? null,
    dashboardPublished: dashboard?.config ?? null,
    publishedDashboard: dashboard,
    isFavorite: null,
    createdBy: row.created_by,
    userId: row.created_by,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** What a published version keeps of each report it shows, so the version reads the same after the report changes. */
export function reportSnapshot(report: ReportRow): Static<typeof ReportSnapshot> {
  let spec: string | Record<string, unknown> | null = report.json_query;
  if (spec !== null) {
    try {
      spec = JSON.parse(spec) as Record<string, unknown>;
    } catch {
      // Kept as the text it is: a report's query is stored as text and need not be JSON yet.
    }
  }
  return {
    id: report.id,
    reportId: report.id,
    versionNumber: report.version,
    name: report.name,
    title: report.title,
    description: report.description,
    kind: null,
    meta: json<Record<string, unknown> | null>(report.meta) ?? null,
    preferences: null,
    spec,
    sqlQuery: report.sql_query,
  };
}
