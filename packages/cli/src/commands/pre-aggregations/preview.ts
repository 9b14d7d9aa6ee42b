import { positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import type { Column } from '../../core/output.js';
import { preAggregationsPath } from './fields.js';

interface Preview {
  columns: Array<{ name: string }>;
  data: Array<Record<string, unknown>>;
}

export const preview = defineVerb({
  name: 'preview',
  summary: 'Show the first rows of a built pre-aggregation, as stored (getPreAggregationPreview)',
  args: ['<deployment_id>', '<pre_aggregation>'],
  options: [
    { flags: '--limit <n>', description: 'Rows (default 100, at most 1000)' },
    { flags: '--branch <name>', description: 'A shared branch (default: the deploy branch)' },
  ],
  examples: ['plinth pre-aggregations preview 1 orders.by_day --limit 10'],
  async run(f, [deploymentId, rollupId], opts) {
    const client = await f.client();
    const query = { limit: opts.limit === undefined ? undefined : positiveInt(opts.limit, '--limit'), branch: opts.branch };
    const response = await client.request<Preview>('GET', `${preAggregationsPath(deploymentId)}/${encodeURIComponent(rollupId!)}/preview`, {
      query,
    });
    if (f.output.json) return f.output.raw(response);
    // Column names are the rollup's, which hold no dots, but a function reads them whatever they hold.
    const columns: Column[] = response.data.columns.map(({ name }) => [name, (row) => row[name]]);
    f.output.list({ ...response, data: response.data.data }, columns);
  },
});
