import { bodyOf } from '../../core/body.js';
import { builtVerb, type Group, type OptionsOf, type OptionSpec, type Verb } from '../../core/define.js';
import type { Column } from '../../core/output.js';
import { DATA_OPTION, type DataOpts } from '../../core/rest.js';
import {
  printScimList,
  SCIM_JSON,
  SCIM_URN,
  SCIM_LIST_OPTIONS,
  scimClient,
  scimListParams,
  SCIM_TOKEN_OPTION,
  searchVerb,
  type ScimTokenOpts,
} from './client.js';

interface ResourceSpec<CreateOptions extends readonly OptionSpec[]> {
  group: string;
  resource: 'Users' | 'Groups';
  schema: string;
  columns: Column[];
  createOptions: CreateOptions;
  createFields: (opts: OptionsOf<CreateOptions>) => Record<string, unknown>;
}

/** The SCIM verbs of one resource type: list (filter, paging), search, get, create, replace, patch, delete. */
export function scimResource<const CreateOptions extends readonly OptionSpec[]>(spec: ResourceSpec<CreateOptions>): Group {
  const base = `/api/scim/v2/${spec.resource}`;
  const path = (scimId: string | undefined) => `${base}/${encodeURIComponent(scimId ?? '')}`;
  // Every verb also takes --scim-token, so each run may read it.
  const verb = <Opts>(v: Verb<Opts & ScimTokenOpts>): Verb => builtVerb({ ...v, options: [...(v.options ?? []), SCIM_TOKEN_OPTION] });
  const send = <const Extra extends readonly OptionSpec[]>(
    name: string,
    summary: string,
    method: string,
    hasId: boolean,
    extra?: Extra,
    fields?: (opts: OptionsOf<Extra>) => Record<string, unknown>,
  ) =>
    verb<OptionsOf<Extra> & DataOpts>({
      name,
      summary,
      args: hasId ? ['<id>'] : [],
      options: [...(extra ?? []), DATA_OPTION],
      async run(f, [scimId], opts) {
        const body = await bodyOf(f.io, opts.data, fields?.(opts) ?? {});
        // The server requires each body to name its URN (RFC 7644 §3); -d may leave it out.
        if (!body.schemas) body.schemas = [method === 'PATCH' ? SCIM_URN.patchOp : spec.schema];
        const client = await scimClient(f, opts);
        f.output.object(await client.request(method, hasId ? path(scimId) : base, { body, headers: SCIM_JSON }), spec.columns);
      },
    });
  return {
    name: spec.group,
    summary: `SCIM ${spec.resource}`,
    verbs: [
      verb<OptionsOf<typeof SCIM_LIST_OPTIONS>>({
        name: 'list',
        aliases: ['ls'],
        summary: `List SCIM ${spec.group} (filter with --filter 'userName eq "a@b.c"')`,
        options: SCIM_LIST_OPTIONS,
        async run(f, _args, opts) {
          const client = await scimClient(f, opts);
          printScimList(f, await client.request('GET', base, { query: scimListParams(opts), headers: SCIM_JSON }), spec.columns);
        },
      }),
      searchVerb({
        summary: `Search SCIM ${spec.group} with the query in a POST body (${spec.resource}/.search)`,
        path: `${base}/.search`,
        columns: spec.columns,
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
      send(
        'create',
        `Create a SCIM ${spec.resource.slice(0, -1).toLowerCase()} (flags or -d)`,
        'POST',
        false,
        spec.createOptions,
        spec.createFields,
      ),
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
