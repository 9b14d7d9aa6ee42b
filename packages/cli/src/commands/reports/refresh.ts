import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { CliError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import { reportsPath } from './fields.js';

/** What this command reads of a report's snapshot, which the spec leaves open. */
interface Snapshot {
  data?: Array<Record<string, unknown>>;
  truncated?: boolean;
  rowCount?: number;
}

export const refresh = defineVerb({
  name: 'refresh',
  summary: "Run a report's query as you and keep the answer as its snapshot (refreshReport)",
  description:
    'Your access policies decide the rows. A query that no longer runs keeps its error on the report (the last snapshot stays) and this exits 1 naming it.',
  args: ['<deployment_id>', '<report_id>'],
  examples: ['plinth reports refresh 1 42', 'plinth reports refresh 1 42 --json | jq .snapshot.data'],
  async run(f, [deploymentId, reportId]) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/reports/{reportId}/refresh', 'put'>>('PUT', `${reportsPath(deploymentId, reportId)}/refresh`);
    const report = response.data;
    if (f.output.json) f.output.raw(response);
    if (report.refreshError !== null) {
      throw new CliError(
        `Report ${report.id} did not refresh: ${report.refreshError}`,
        'Its last snapshot is kept; fix the query with `plinth reports update`.',
      );
    }
    if (f.output.json) return;
    const snapshot = report.snapshot as Snapshot | null | undefined;
    const rows = snapshot?.data ?? [];
    const truncated = snapshot?.truncated ? ` (first ${rows.length} of ${snapshot.rowCount}: the snapshot is capped)` : '';
    f.output.status(`Refreshed report ${report.id}: ${rows.length} rows${truncated}`);
    // Member names hold dots, which a column's string accessor would read as a path.
    const columns: Column[] = Object.keys(rows[0] ?? {}).map((key) => [key, (row) => row[key]]);
    if (rows.length) f.output.list({ ...response, data: rows }, columns);
  },
});
