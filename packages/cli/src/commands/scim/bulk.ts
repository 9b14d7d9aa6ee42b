import { readFile } from 'node:fs/promises';
import type { Ok } from '@plinth/api-client';
import { positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { CliError, UsageError } from '../../core/errors.js';
import { formatTable, type Column } from '../../core/output.js';
import { SCIM_JSON, SCIM_TOKEN_OPTION, SCIM_URN, scimClient } from './client.js';

/** The request: a whole BulkRequest, or just its array of operations; `schemas` is added when missing. */
function bulkRequest(parsed: unknown, source: string, failOnErrors: number | undefined): Record<string, unknown> {
  const request: Record<string, unknown> = Array.isArray(parsed)
    ? { Operations: parsed }
    : parsed && typeof parsed === 'object'
      ? { ...(parsed as object) }
      : {};
  if (!Array.isArray(request.Operations))
    throw new UsageError(`${source} must hold a SCIM BulkRequest ({"Operations": [...]}) or an array of operations`);
  request.schemas ??= [SCIM_URN.bulkRequest];
  if (failOnErrors !== undefined) request.failOnErrors = failOnErrors;
  return request;
}

export const bulk = defineVerb({
  name: 'bulk',
  summary: 'Run many SCIM operations in one request, from a JSON file or standard input (Bulk)',
  description:
    'The file holds a SCIM BulkRequest ({"Operations": [...]}) or just the array of operations. ' +
    'Operations may refer to resources created earlier in the request as bulkId:<id>.\n' +
    'Each operation succeeds or fails on its own; the command prints one row per operation and exits non-zero when any failed.',
  options: [
    { flags: '--file <path>', description: 'bulk.json, or - for standard input', required: true },
    { flags: '--fail-on-errors <n>', description: 'Stop after this many failed operations' },
    SCIM_TOKEN_OPTION,
  ],
  examples: ['plinth scim bulk --file bulk.json', 'generate-ops | plinth scim bulk --file - --fail-on-errors 1 --json'],
  async run(f, _args, opts) {
    const source = opts.file === '-' ? 'standard input' : String(opts.file);
    const text =
      opts.file === '-'
        ? await f.io.readStdin()
        : await readFile(opts.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
            throw new UsageError(`Cannot read ${opts.file}: ${error.code ?? error.message}`);
          });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${source} is not valid JSON: ${(error as Error).message}`);
    }
    const failOnErrors = opts.failOnErrors === undefined ? undefined : positiveInt(opts.failOnErrors, '--fail-on-errors');
    const request = bulkRequest(parsed, source, failOnErrors);
    const client = await scimClient(f, opts);
    const response = await client.request<Ok<'/api/scim/v2/Bulk', 'post'> | undefined>('POST', '/api/scim/v2/Bulk', {
      body: request,
      headers: SCIM_JSON,
    });
    const results = response.data?.Operations ?? [];
    const failed = results.filter((r) => Number(r.status) >= 400).length;
    if (f.output.json) f.output.raw(response);
    else if (results.length > 0) {
      // With every operation run, results are in the order of the request, so a row can show its
      // number and path; after failOnErrors stopped the run, the server leaves the missing ones out.
      const asked = request.Operations as Array<{ path?: unknown }>;
      const aligned = results.length === asked.length;
      const rows = results.map((r, index) => ({
        ...r,
        index,
        path: asked[index]?.path,
        result: Number(r.status) >= 400 ? [r.response?.scimType, r.response?.detail].filter(Boolean).join(': ') : r.location,
      }));
      const columns: Column[] = [
        ...(aligned
          ? ([
              ['#', 'index'],
              ['Method', 'method'],
              ['Path', 'path'],
            ] as Column[])
          : ([['Method', 'method']] as Column[])),
        ['Bulk ID', 'bulkId'],
        ['Status', 'status'],
        ['Location or error', 'result'],
      ];
      f.output.data(formatTable(columns, rows));
    }
    const requested = (request.Operations as unknown[]).length;
    const notRun = requested - results.length;
    f.output.notice(`${results.length - failed} succeeded, ${failed} failed${notRun > 0 ? `, ${notRun} not run (failOnErrors)` : ''}`);
    if (failed > 0) throw new CliError(`${failed} of ${requested} SCIM operations failed`);
  },
});
