import { defineVerb } from '../../core/define.js';
import { jobColumns, preAggregationsPath } from './fields.js';

export const build = defineVerb({
  name: 'build',
  summary: 'Queue a build of pre-aggregations, all or some, optionally only some partitions (buildPreAggregations)',
  description:
    'The named partitions (every one) are rebuilt whatever their refresh key says. Follow them with `plinth pre-aggregations status`.',
  args: ['<deployment_id>', '[pre_aggregation...]'],
  options: [
    { flags: '--partition <name...>', description: 'Only these partitions (names as `list --json` shows them)' },
    { flags: '--branch <name>', description: 'A shared branch (default: the deploy branch)' },
  ],
  examples: ['plinth pre-aggregations build 1', 'plinth pre-aggregations build 1 orders.by_day --partition orders_by_day20240101'],
  async run(f, [deploymentId, ...ids], opts) {
    const client = await f.client();
    const rollups = (ids as unknown as Array<string | string[]>).flat();
    const body = {
      ...(rollups.length ? { preAggregations: rollups } : {}),
      ...(opts.partition ? { partitions: opts.partition as unknown as string[] } : {}),
      ...(opts.branch === undefined ? {} : { branch: opts.branch }),
    };
    const response = await client.request('POST', `${preAggregationsPath(deploymentId)}/build`, { body });
    f.output.list(response, jobColumns);
  },
});
