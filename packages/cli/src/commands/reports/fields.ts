import { positiveInt } from '../../core/body.js';
import { defineOptions, type OptionsOf } from '../../core/define.js';
import type { Response } from '../../core/http.js';
import type { Column } from '../../core/output.js';
import { id } from '../../core/rest.js';

/** The reports of a deployment; every verb names the deployment first. */
export const reportsPath = (deploymentId: string | undefined, reportId?: string) =>
  `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/reports${reportId === undefined ? '' : `/${id(reportId, 'report_id')}`}`;

export const reportColumns: Column[] = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Title', 'title'],
  ['Folder', 'folderId'],
  ['Workbook', 'workbookId'],
  ['Refreshed', 'refreshedAt'],
  ['Refresh error', 'refreshError'],
];

/** One report without its snapshot's rows (they are in --json, or a table after `refresh`). */
export const reportFields: Column[] = [
  ['ID', 'id'],
  ['Public ID', 'publicId'],
  ['Name', 'name'],
  ['Title', 'title'],
  ['Description', 'description'],
  ['Source', 'source'],
  ['JSON query', 'jsonQuery'],
  ['SQL query', 'sqlQuery'],
  ['Folder', 'folderId'],
  ['Workbook', 'workbookId'],
  ['Owner', (r) => (r.user as { email?: string } | null)?.email],
  ['Version', 'version'],
  ['Refreshed at', 'refreshedAt'],
  ['Refreshed by', (r) => (r.refreshedByUser as { email?: string } | null)?.email],
  ['Refresh error', 'refreshError'],
  ['Snapshot rows', (r) => ((r.snapshot as { data?: unknown[] } | null)?.data ?? undefined)?.length],
  ['Updated', 'updatedAt'],
];

/** Flags of the fields a create or update sets; anything else (pivotItems, meta) goes in -d. */
export const REPORT_OPTIONS = defineOptions([
  { flags: '--name <name>', description: 'Report name' },
  { flags: '--title <title>', description: 'Title' },
  { flags: '--description <text>', description: 'Description' },
  { flags: '--json-query <json>', description: "A Cube query as JSON, e.g. '{\"measures\":[\"orders.count\"]}'" },
  { flags: '--sql-query <sql>', description: 'A SELECT over cubes and views that one semantic query answers, instead of --json-query' },
  { flags: '--source <source>', description: 'Where the report comes from', choices: ['GOOGLE_SHEETS', 'EXCEL', 'PLAYGROUND', 'D3'] },
  { flags: '--folder <id>', description: 'The folder holding the report' },
  { flags: '--workbook <id>', description: 'The workbook holding the report' },
]);

export function reportBody(opts: OptionsOf<typeof REPORT_OPTIONS>) {
  return {
    name: opts.name,
    title: opts.title,
    description: opts.description,
    jsonQuery: opts.jsonQuery,
    sqlQuery: opts.sqlQuery,
    source: opts.source,
    folderId: opts.folder === undefined ? undefined : positiveInt(opts.folder, '--folder'),
    workbookId: opts.workbook === undefined ? undefined : positiveInt(opts.workbook, '--workbook'),
  };
}

/** The reference's lists answer `{data, pageInfo}`; the table printer reads `{items, pageInfo}`. */
export function asItems(response: Response): Response {
  const body = response.data as { data?: unknown[]; pageInfo?: unknown } | undefined;
  return { ...response, data: { items: body?.data ?? [], pageInfo: body?.pageInfo } };
}
