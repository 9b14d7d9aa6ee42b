import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import type { Response } from '../../core/http.js';
import { cell, formatTable, type Column } from '../../core/output.js';
import { id } from '../../core/rest.js';
import { dataApiBase, dataApiToken } from '../../core/data-token.js';

/**
 * One answer of `/v1/load`: the rows, as Cube keys them (`cube.member`, `cube.time.granularity`).
 * The spec leaves the data API's answers open (DataApiLoadResponse): this is what the command reads.
 */
interface LoadResult {
  data: Array<Record<string, unknown>>;
}
type LoadAnswer = (LoadResult & { results?: undefined }) | { results: LoadResult[] } | { error: string };

/** How long to wait between the retries of a query the server answered `Continue wait` for, as Cube's clients do. */
const RETRY_MS = [100, 250, 500, 1000];

function parseQuery(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--query must be JSON (a Cube query or an array of them): ${(error as Error).message}`);
  }
}

/** A table per result: one column per key of the rows (the query's members), in the order the server gave them. */
export function rowsTable(rows: ReadonlyArray<Record<string, unknown>>): string {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const columns: Column[] = keys.map((key) => [key, (row) => cell((row as Record<string, unknown>)[key])]);
  return formatTable(columns, [...rows]);
}

export const verb = defineVerb({
  name: 'load',
  summary: "Run a query on a deployment's data API (loadV1) and print the rows",
  description:
    'Without --token, mints a short-lived data API token for the branch with your credential (as `plinth meta` does); with --token, the ' +
    "query runs as that token's holder (a data API, environment or embed token), under the model's access policies. " +
    "A query still running after the server's continue-wait time is retried until it answers, as Cube's clients do.",
  args: ['<deployment_id>'],
  options: [
    { flags: '--query <json>', description: 'The Cube query (JSON), or an array of queries', required: true },
    { flags: '--branch <name>', description: 'A dev branch or enabled staging branch instead of the deploy branch' },
    { flags: '--token <token>', description: 'A bare data API, environment or embed token to query with' },
  ],
  examples: [
    'plinth load 12 --query \'{"measures":["orders.count"],"dimensions":["orders.status"]}\'',
    'plinth load 12 --query \'{"measures":["orders.count"]}\' --token "$EMBED_TOKEN" --json',
  ],
  async run(f, [deploymentId], opts) {
    const query = parseQuery(opts.query);
    const deployment = id(deploymentId, 'deployment_id');
    const client = await f.client();
    const branch = typeof opts.branch === 'string' ? opts.branch : undefined;
    // The data API takes only data API tokens: without --token, one for the branch minted with the caller's credential.
    const { token, base } =
      opts.token === undefined || opts.token === ''
        ? await dataApiToken(client, deployment, branch)
        : { token: opts.token, base: dataApiBase(deployment, branch) };
    let response: Response<LoadAnswer>;
    for (let attempt = 0; ; attempt += 1) {
      response = await client.request<LoadAnswer>('POST', `${base}/load`, {
        anonymous: true,
        headers: { authorization: token },
        body: { query },
      });
      const answer = response.data;
      if (!('error' in answer) || answer.error !== 'Continue wait') break;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
    }
    if (f.output.json) return f.output.raw(response);
    const answer = response.data;
    const results = 'results' in answer && answer.results ? answer.results : [answer as LoadResult];
    const tables = results.map((result) => (result.data.length === 0 ? '(no rows)\n' : rowsTable(result.data)));
    f.output.data(tables.join('\n'));
  },
});
