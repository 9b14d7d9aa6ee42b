import type { Dashboard, Widget } from '../dashboard/model';
import { apiGet, apiSend } from '../lib/api';
import type { CubeQuery } from '../lib/data-api';
import type { EmbedSession } from '../session/session';

/**
 * The workspace operations a creator-mode token may call (server README "Creator mode"): the
 * embed tenant's workbooks, their reports and dashboard, under the session's own deployment.
 */
export interface DashboardDraft {
  title?: string | null;
  widgets: Widget[];
}

export interface Workbook {
  id: number;
  name: string;
  dashboardDraft: DashboardDraft | null;
  publishedDashboard: Dashboard | null;
  updatedAt: string;
}

export interface Report {
  id: number;
  name: string;
  workbookId: number | null;
  jsonQuery: string | null;
  meta: Record<string, unknown> | null;
}

export interface ReportInput {
  name: string;
  query: CubeQuery;
  chartType: string;
}

export function creatorApi(session: EmbedSession) {
  const base = `/api/v1/deployments/${session.claims.deploymentId}`;
  const get = <T>(path: string) => apiGet<T>(session, `${base}${path}`);
  const send = <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => apiSend<T>(session, method, `${base}${path}`, body);
  return {
    workbooks: async () => (await get<{ items: Workbook[] }>('/workbooks')).items,
    workbook: (id: number) => get<Workbook>(`/workbooks/${id}`),
    createWorkbook: (name: string) => send<Workbook>('POST', '/workbooks', { name }),
    duplicateWorkbook: (id: number) => send<Workbook>('POST', `/workbooks/${id}/duplicate`),
    deleteWorkbook: (id: number) => send<unknown>('DELETE', `/workbooks/${id}`),
    reports: async (workbookId: number) => (await get<{ data: Report[] }>(`/reports?workbookId=${workbookId}`)).data,
    createReport: (workbookId: number, input: ReportInput) =>
      send<Report>('POST', '/reports', {
        name: input.name,
        workbookId,
        jsonQuery: JSON.stringify(input.query),
        meta: { chartType: input.chartType },
      }),
    updateReport: (id: number, input: ReportInput) =>
      send<Report>('PUT', `/reports/${id}`, {
        name: input.name,
        jsonQuery: JSON.stringify(input.query),
        meta: { chartType: input.chartType },
      }),
    deleteReport: (id: number) => send<unknown>('DELETE', `/reports/${id}`),
    saveDraft: (workbookId: number, draft: DashboardDraft) =>
      send<unknown>('PUT', `/workbooks/${workbookId}/dashboard`, { dashboardDraft: draft }),
    publish: (workbookId: number) => send<Dashboard>('POST', `/workbooks/${workbookId}/publish`, { workbookId }),
    dashboard: (publicId: string) => apiGet<Dashboard>(session, `/api/v1/embed/dashboard/${encodeURIComponent(publicId)}`),
  };
}
export type CreatorApi = ReturnType<typeof creatorApi>;

/** A report's query as the builder edits it, or an empty one when it has none it can read. */
export function reportQuery(report: Report): CubeQuery {
  try {
    const parsed = JSON.parse(report.jsonQuery ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as CubeQuery) : {};
  } catch {
    return {};
  }
}
