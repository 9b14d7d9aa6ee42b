import { bodyOf, int } from '../../core/body.js';
import type { Group, OptionSpec, Verb } from '../../core/define.js';
import type { Column } from '../../core/output.js';
import { DATA_OPTION } from '../../core/rest.js';
import { SCIM_JSON, SCIM_TOKEN_OPTION, scimClient } from './client.js';

interface ResourceSpec {
  group: string;
  resource: 'Users' | 'Groups';
  schema: string;
  columns: Column[];
  createOptions: OptionSpec[];
  createFields: (opts: Record<string, any>) => Record<string, unknown>;
}

/** The SCIM verbs of one resource type: list (filter, paging), get, create, replace, patch, delete. */
export function scimResource(spec: ResourceSpec): Group {
  const base = `/api/scim/v2/${spec.resource}`;
  const path = (scimId: string | undefined) => `${base}/${encodeURIComponent(scimId ?? '')}`;
  const verb = (v: Omit<Verb, 'options'> & { options?: OptionSpec[] }): Verb => ({ ...v, options: [...(v.options ?? []), SCIM_TOKEN_OPTION] });
  const send = (name: string, summary: string, method: string, hasId: boolean, extra: OptionSpec[] = [], fields?: ResourceSpec['createFields']) =>
    verb({
      name,
      summary,
      args: hasId ? ['<id>'] : [],
      options: [...extra, DATA_OPTION],
      async run(f, [scimId], opts) {
        const body = await bodyOf(f.io, opts.data, fields?.(opts) ?? {});
        if (method !== 'PATCH' && !body.schemas) body.schemas = [spec.schema];
        const client = await scimClient(f, opts);
        f.output.object(await client.request(method, hasId ? path(scimId) : base, { body, headers: SCIM_JSON }), spec.columns);
      },
    });
  return {
    name: spec.group,
    summary: `SCIM ${spec.resource}`,
    verbs: [
      verb({
        name: 'list',
        aliases: ['ls'],
        summary: `List SCIM ${spec.group} (filter with --filter 'userName eq "a@b.c"')`,
        options: [
          { flags: '--filter <filter>', description: 'SCIM filter expression' },
          { flags: '--start-index <n>', description: '1-based index of the first result' },
          { flags: '--count <n>', description: 'Page size' },
        ],
        async run(f, _args, opts) {
          const client = await scimClient(f, opts);
          const query = { filter: opts.filter, startIndex: int(opts.startIndex, '--start-index'), count: int(opts.count, '--count') };
          f.output.list(await client.request('GET', base, { query, headers: SCIM_JSON }), spec.columns);
        },
      }),
      verb({
        name: 'get',
        summary: `Show one SCIM ${spec.resource.slice(0, -1).toLowerCase()}`,
        args: ['<id>'],
        async run(f, [scimId], opts) {
          const client = await scimClient(f, opts);
          f.output.object(await client.request('GET', path(scimId), { headers: SCIM_JSON }), spec.columns);
        },
      }),
      send('create', `Create a SCIM ${spec.resource.slice(0, -1).toLowerCase()} (flags or -d)`, 'POST', false, spec.createOptions, spec.createFields),
      send('replace', 'Replace the whole resource (PUT, -d)', 'PUT', true),
      send('patch', 'Apply a SCIM PatchOp (-d)', 'PATCH', true),
      verb({
        name: 'delete',
        aliases: ['rm'],
        summary: `Delete a SCIM ${spec.resource.slice(0, -1).toLowerCase()}`,
        args: ['<id>'],
        async run(f, [scimId], opts) {
          const client = await scimClient(f, opts);
          await client.request('DELETE', path(scimId), { headers: SCIM_JSON });
          f.output.status(`Deleted ${spec.resource.slice(0, -1).toLowerCase()} ${scimId}`);
        },
      }),
    ],
  };
}
