import { pairs } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';
import { variableColumns, variablesPath } from './columns.js';

export const set = defineVerb({
  name: 'set',
  summary: 'Set environment variables of a deployment and rebuild its deploy branch (setDeploymentVariables)',
  description:
    'Variables not named keep their values. CUBEJS_DB_TYPE (duckdb or postgres), CUBEJS_DB_DUCKDB_DATABASE_PATH and CUBEJS_DB_HOST/PORT/NAME/USER/PASS/SSL, CUBEJS_DB_MAX_POOL and CUBEJS_DB_QUERY_TIMEOUT configure the warehouse. Values of names containing PASS, SECRET, KEY or TOKEN are always masked.',
  args: ['<deployment_id>', '<KEY=value...>'],
  options: [{ flags: '--secret', description: 'Mask these values in listings whatever their names' }],
  examples: [
    'plinth variables set 1 CUBEJS_DB_TYPE=postgres CUBEJS_DB_HOST=db.internal CUBEJS_DB_NAME=shop CUBEJS_DB_USER=reader CUBEJS_DB_PASS=…',
  ],
  async run(f, [deploymentId, assignments], opts) {
    const path = variablesPath(id(deploymentId, 'deployment_id'));
    const variables = pairs(assignments as unknown as string[], 'KEY=value').map(([name, value]) => ({
      name,
      value,
      ...(opts.secret ? { secret: true } : {}),
    }));
    const client = await f.client();
    const response = await client.request('POST', path, { body: { variables } });
    f.output.status(`Set ${variables.map((v) => v.name).join(', ')}; the deploy branch is rebuilding`);
    f.output.list(response, variableColumns);
  },
});
