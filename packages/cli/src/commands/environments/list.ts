import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { id } from '../../core/rest.js';
import { OFFSET_OPTIONS, offsetQuery, printPage } from './shared.js';

const TYPES = ['production', 'staging', 'development'];

interface SqlCredential {
  type: string;
  url?: string | null;
  user?: string;
  password?: string;
}
const sqlOf = (row: { api_credentials?: SqlCredential[] }) => row.api_credentials?.find((c) => c.type === 'sql');

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: "List a deployment's environments and their API credentials (getDeploymentEnvironments)",
  args: ['<deployment_id>'],
  options: [{ flags: '--type <type>', description: 'Only production, staging or development' }, ...OFFSET_OPTIONS],
  examples: ['plinth environments list 1', 'plinth environments list 1 --type staging'],
  async run(f, [deploymentId], opts) {
    if (opts.type !== undefined && !TYPES.includes(opts.type)) {
      throw new UsageError(`--type must be one of ${TYPES.join(', ')}, got "${opts.type}"`);
    }
    const path = `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/environments`;
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/environments', 'get'>>('GET', path, {
      query: { type: opts.type, ...offsetQuery(opts) },
    });
    printPage(f, response, [
      ['ID', 'id'],
      ['TYPE', 'type'],
      ['BRANCH', 'branch'],
      ['API URL', (row) => row.api_credentials?.find((c: { type: string }) => c.type === 'rest')?.url ?? ''],
      // The SQL API's credential (PostgreSQL wire): connect to its URL as its user, with its password.
      ['SQL URL', (row) => sqlOf(row)?.url ?? ''],
      ['SQL USER', (row) => sqlOf(row)?.user ?? ''],
      ['SQL PASSWORD', (row) => sqlOf(row)?.password ?? ''],
    ]);
  },
});
