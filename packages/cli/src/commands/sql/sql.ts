import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { formatTable, type Column } from '../../core/output.js';
import { id } from '../../core/rest.js';
import { dataApiToken } from '../../core/data-token.js';

/** One line of the newline-delimited answer of `/v1/cubesql`: the schema first, then batches of rows. */
type Line = Ok<'/d/{deploymentId}/cubejs-api/v1/cubesql', 'post'>;

/** The newline-delimited answer of `/v1/cubesql` as a table: the schema line's names as headers, one row per data row. */
export function sqlTable(text: string): { table: string; rows: number } {
  const lines = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
  const schema = lines[0]?.schema ?? [];
  const rows = lines.slice(1).flatMap((line) => line.data ?? []);
  const columns: Column[] = schema.map((column, index) => [column.name, (row: unknown[]) => row[index]]);
  return { table: formatTable(columns, rows), rows: rows.length };
}

export const verb = defineVerb({
  name: 'sql',
  summary: "Run a SQL query on a deployment's data model and print the rows (cubesqlV1, with a data API token it mints)",
  args: ['<deployment_id>', '<sql>'],
  options: [{ flags: '--branch <name>', description: 'A dev branch or enabled staging branch instead of the deploy branch' }],
  examples: [
    'plinth sql 12 "SELECT status, MEASURE(count) FROM orders GROUP BY 1"',
    'plinth sql 12 "SELECT DATE_TRUNC(\'month\', created_at), COUNT(*) FROM orders GROUP BY 1" --json',
  ],
  async run(f, [deploymentId, sql], opts) {
    const client = await f.client();
    const deployment = id(deploymentId, 'deployment_id');
    // The data API takes only data API tokens: mint a short-lived one for the branch with the caller's credential.
    const { token, base } = await dataApiToken(client, deployment, typeof opts.branch === 'string' ? opts.branch : undefined);
    const response = await client.request('POST', `${base}/cubesql`, {
      anonymous: true,
      headers: { authorization: token },
      body: { query: sql },
    });
    if (f.output.json) return f.output.raw(response);
    const { table, rows } = sqlTable(response.text);
    f.output.data(table);
    if (rows === 0) f.output.notice('No rows');
  },
});
