import { defineOptions, defineVerb, type OptionsOf } from '../../core/define.js';
import { id, pageOptions, pageQuery } from '../../core/rest.js';
import type { Column } from '../../core/output.js';

const OPTIONS = defineOptions([
  { flags: '--branch <name>', description: 'Branch (default: your dev-mode branch if a session is open, else main)' },
  ...pageOptions(),
]);

const columns: Column[] = [
  ['ID', 'buildId'],
  ['Status', 'status'],
  ['Commit', 'commitId'],
  ['Cubes', 'cubesCount'],
  ['Errors', (b: { errors: unknown[] }) => b.errors.length],
  ['Trigger', 'trigger'],
  ['Created', 'createdAt'],
  ['Finished', 'finishedAt'],
];

export const builds = defineVerb<typeof OPTIONS>({
  name: 'builds',
  summary: 'List the builds of a branch, newest first (getDeploymentBuilds)',
  args: ['<deployment_id>'],
  options: OPTIONS,
  async run(f, [deploymentId], opts: OptionsOf<typeof OPTIONS>) {
    const client = await f.client();
    const query = { ...pageQuery(opts), branch: opts.branch };
    f.output.list(await client.request('GET', `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/builds`, { query }), columns);
  },
});
