import { defineVerb } from '../../core/define.js';
import { preAggregationColumns, preAggregationsPath } from './fields.js';

interface ListBody {
  buildId: number | null;
  state: string | null;
  error: string | null;
  items: unknown[];
}

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: "List a deployment's pre-aggregations: partitions, rows, size, last refresh, build time, errors (getPreAggregations)",
  args: ['<deployment_id>'],
  options: [{ flags: '--branch <name>', description: 'A shared branch (default: the deploy branch)' }],
  examples: ['plinth pre-aggregations list 1', 'plinth pre-aggregations list 1 --json | jq ".items[].partitions"'],
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const response = await client.request<ListBody>('GET', preAggregationsPath(deploymentId), { query: { branch: opts.branch } });
    if (f.output.json) return f.output.raw(response);
    const { buildId, state, error } = response.data;
    if (buildId !== null) f.output.notice(`Build ${buildId}${state ? `: ${state}` : ''}${error ? ` (${error})` : ''}`);
    f.output.list(response, preAggregationColumns);
  },
});
