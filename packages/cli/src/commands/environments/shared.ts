import type { Schema } from '@plinth/api-client';
import { int, positiveInt, readJsonArg } from '../../core/body.js';
import { defineOptions } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import type { Factory } from '../../core/factory.js';
import { formatTable, type Column } from '../../core/output.js';
import type { Response } from '../../core/http.js';
import { id } from '../../core/rest.js';

export const environmentPath = (deploymentId: string | undefined, environmentId: string | undefined) =>
  `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/environments/${id(environmentId, 'environment_id')}`;

/** The reference's offset pagination, which these operations keep. */
export const OFFSET_OPTIONS = defineOptions([
  { flags: '--offset <n>', description: 'Skip this many results' },
  { flags: '--limit <n>', description: 'At most this many results (default 100)' },
]);

export function offsetQuery(opts: { offset?: string | undefined; limit?: string | undefined }) {
  const offset = int(opts.offset, '--offset');
  const limit = int(opts.limit, '--limit');
  if (offset !== undefined && offset < 0) throw new UsageError('--offset must be 0 or more');
  if (limit !== undefined && limit < 0) throw new UsageError('--limit must be 0 or more');
  return { offset, limit };
}

/** A page of environments or of their tokens. */
export interface Listed {
  data: unknown[];
  pagination: Schema<'DeploymentsPagination'>;
}

/** A table of `data`, with a notice on stderr when the server holds more than this page. */
export function printPage(f: Factory, response: Response<Listed>, columns: Column[]): void {
  if (f.output.json) return f.output.raw(response);
  const { data, pagination } = response.data;
  if (data.length === 0) return f.output.notice('No results');
  f.output.data(formatTable(columns, data));
  const next = pagination.offset + data.length;
  if (next < pagination.total) f.output.notice(`More results: add --offset ${next}`);
}

export const TOKEN_OPTIONS = defineOptions([
  { flags: '--security-context <json>', description: 'Security context of the token, a JSON object (default {})' },
  { flags: '--expires-in <seconds>', description: 'Lifetime in seconds (default and at most an hour)' },
]);

/** Mints an environment token and prints it alone (or the raw response with --json). */
export async function mintEnvironmentToken(
  f: Factory,
  path: string,
  opts: { securityContext?: string | undefined; expiresIn?: string | undefined },
): Promise<void> {
  let context: unknown = {};
  if (opts.securityContext !== undefined) {
    context = await readJsonArg(f.io, opts.securityContext, '--security-context');
    if (context === null || typeof context !== 'object' || Array.isArray(context)) {
      throw new UsageError('--security-context must be a JSON object');
    }
  }
  const body: Record<string, unknown> = { security_context: context };
  if (opts.expiresIn !== undefined) body.expires_in = positiveInt(opts.expiresIn, '--expires-in');
  const client = await f.client();
  const response = await client.request<Schema<'DeploymentEnvironmentTokenResponse'>>('POST', path, { body });
  if (f.output.json) return f.output.raw(response);
  f.output.data(response.data.data.token);
}
