import { readFile } from 'node:fs/promises';
import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { CliError, UsageError } from '../../core/errors.js';
import { enc } from '../../core/rest.js';
import { formatTable } from '../../core/output.js';
import { parseCsv } from './csv.js';

/** CSV columns: externalId, email, displayName, picture, groups, tenantGroups (lists separated by `;`). */
export function usersFromCsv(text: string): Array<Record<string, unknown>> {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const list = (value: string | undefined) =>
    value === undefined || value === ''
      ? undefined
      : value
          .split(';')
          .map((v) => v.trim())
          .filter(Boolean);
  return rows.map((row) => {
    const get = (name: string) => {
      const i = header.indexOf(name);
      return i < 0 ? undefined : row[i] === '' ? undefined : row[i];
    };
    const profile = get('displayName') || get('picture') ? { displayName: get('displayName'), picture: get('picture') } : undefined;
    return {
      externalId: get('externalId'),
      email: get('email'),
      userProfile: profile,
      groups: list(get('groups')),
      tenantGroups: list(get('tenantGroups')),
    };
  });
}

export const provisionBulk = defineVerb({
  name: 'provision-bulk',
  summary: 'Create or update many external users from a JSON or CSV file (provisionEmbedUsers)',
  description:
    'JSON: an array of users or {"users": [...]}. CSV: a header row with externalId, email, displayName, picture, groups, tenantGroups; separate several groups with ";".\nExits non-zero when any entry failed.',
  args: ['<tenant>'],
  options: [{ flags: '--file <path>', description: 'users.json or users.csv (- for standard input, read as JSON)', required: true }],
  async run(f, [tenant], opts) {
    const text =
      opts.file === '-'
        ? await f.io.readStdin()
        : await readFile(opts.file, 'utf8').catch(() => {
            throw new UsageError(`Cannot read ${opts.file}`);
          });
    let users: unknown;
    if (String(opts.file).toLowerCase().endsWith('.csv')) users = usersFromCsv(text);
    else {
      try {
        const parsed = JSON.parse(text);
        users = Array.isArray(parsed) ? parsed : parsed.users;
      } catch (error) {
        throw new UsageError(`${opts.file} is not valid JSON: ${(error as Error).message}`);
      }
    }
    if (!Array.isArray(users)) throw new UsageError(`${opts.file} must hold an array of users or {"users": [...]}`);
    const response = await (
      await f.client()
    ).request<Ok<'/api/v1/embed-tenants/{embedTenantName}/users', 'post'>>('POST', `/api/v1/embed-tenants/${enc(tenant ?? '')}/users`, {
      body: { users },
    });
    const result = response.data;
    if (f.output.json) f.output.raw(response);
    else {
      const rows = [
        ...result.succeeded.map((s) => ({ ...s, result: 'ok', message: '' })),
        ...result.failed.map((e) => ({
          index: e.index,
          externalId: e.externalId,
          result: `failed (${e.error.status})`,
          message: e.error.message,
        })),
      ].sort((a, b) => a.index - b.index);
      if (rows.length > 0)
        f.output.data(
          formatTable(
            [
              ['#', 'index'],
              ['External ID', 'externalId'],
              ['Result', 'result'],
              ['Message', 'message'],
            ],
            rows,
          ),
        );
    }
    f.output.notice(`${result.succeeded.length} succeeded, ${result.failed.length} failed`);
    if (result.failed.length > 0) throw new CliError(`${result.failed.length} of ${users.length} users were not provisioned`);
  },
});
