import { defineVerb } from '../../core/define.js';
import { jobColumns, preAggregationsPath } from './fields.js';

export const status = defineVerb({
  name: 'status',
  summary: "Show a deployment's pre-aggregation jobs, newest first (getPreAggregationJobs)",
  args: ['<deployment_id>'],
  examples: ['plinth pre-aggregations status 1'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    f.output.list(await client.request('GET', `${preAggregationsPath(deploymentId)}/jobs`), jobColumns);
  },
});
