import { defineVerb } from '../../core/define.js';
import { formatTable } from '../../core/output.js';
import { filterDocument, matches, operations, type Doc } from './filter.js';

export const verb = defineVerb({
  name: 'spec',
  summary: 'List the operations of the API (METHOD, PATH, SUMMARY), or print its OpenAPI document',
  description:
    'The pattern matches method, path, summary and operation id, case-insensitively.\n' +
    'With --json: the whole document, or, with a pattern, a valid document holding only the matching operations and every schema they reference.',
  args: ['[pattern]'],
  examples: ['plinth spec embed', 'plinth spec getDeployments --json > deployments.openapi.json'],
  async run(f, [pattern]) {
    const client = await f.client();
    const response = await client.request<Doc>('GET', '/api/v1/spec', { anonymous: true });
    if (f.output.json) {
      if (!pattern) return f.output.raw(response);
      return f.output.data(JSON.stringify(filterDocument(response.data, pattern), null, 2));
    }
    const rows = operations(response.data).filter((row) => !pattern || matches(row, pattern));
    if (rows.length === 0) return f.output.notice('No results');
    f.output.data(
      formatTable(
        [
          ['Method', 'method'],
          ['Path', 'path'],
          ['Summary', 'summary'],
        ],
        rows,
      ),
    );
  },
});
