import { defineVerb, type Group, type Verb } from '../../core/define.js';
import { formatTable, type Column } from '../../core/output.js';
import { printScimList, SCIM_JSON, SCIM_TOKEN_OPTION, scimClient } from './client.js';

/** Discovery (RFC 7644 §4): what the service provider supports, its resource types and schemas. Each needs a SCIM token. */
const BASE = '/api/scim/v2';

const get = (spec: { name: string; summary: string; path: (id: string) => string; args?: string[]; fields?: Column[] }): Verb =>
  defineVerb({
    name: spec.name,
    summary: spec.summary,
    args: spec.args,
    options: [SCIM_TOKEN_OPTION],
    async run(f, [id], opts) {
      const client = await scimClient(f, opts);
      f.output.object(await client.request('GET', spec.path(id ?? ''), { headers: SCIM_JSON }), spec.fields);
    },
  });

const list = (spec: { summary: string; path: string; columns: Column[] }): Verb =>
  defineVerb({
    name: 'list',
    aliases: ['ls'],
    summary: spec.summary,
    options: [SCIM_TOKEN_OPTION],
    async run(f, _args, opts) {
      const client = await scimClient(f, opts);
      printScimList(f, await client.request('GET', spec.path, { headers: SCIM_JSON }), spec.columns);
    },
  });

export const serviceProviderConfig = get({
  name: 'service-provider-config',
  summary: 'Show what the SCIM service supports: patch, bulk limits, filter, sort, ETags (ServiceProviderConfig)',
  path: () => `${BASE}/ServiceProviderConfig`,
  fields: [
    ['patch', 'patch.supported'],
    ['bulk', (c) => (c.bulk?.supported ? `maxOperations ${c.bulk.maxOperations}, maxPayloadSize ${c.bulk.maxPayloadSize}` : false)],
    ['filter', (c) => (c.filter?.supported ? `maxResults ${c.filter.maxResults}` : false)],
    ['changePassword', 'changePassword.supported'],
    ['sort', 'sort.supported'],
    ['etag', 'etag.supported'],
    ['authenticationSchemes', (c) => (c.authenticationSchemes ?? []).map((s: { type?: string }) => s.type)],
    ['documentationUri', 'documentationUri'],
  ],
});

export const resourceTypes: Group = {
  name: 'resource-types',
  summary: 'SCIM resource types (ResourceTypes)',
  verbs: [
    list({
      summary: 'List the SCIM resource types',
      path: `${BASE}/ResourceTypes`,
      columns: [
        ['ID', 'id'],
        ['Name', 'name'],
        ['Endpoint', 'endpoint'],
        ['Schema', 'schema'],
      ],
    }),
    get({
      name: 'get',
      summary: 'Show one SCIM resource type (User or Group)',
      args: ['<id>'],
      path: (id) => `${BASE}/ResourceTypes/${encodeURIComponent(id)}`,
      fields: [
        ['id', 'id'],
        ['name', 'name'],
        ['endpoint', 'endpoint'],
        ['description', 'description'],
        ['schema', 'schema'],
        ['schemaExtensions', (t) => (t.schemaExtensions ?? []).map((e: { schema: string }) => e.schema)],
      ],
    }),
  ],
};

interface Attribute {
  name: string;
  type?: string;
  multiValued?: boolean;
  required?: boolean;
  mutability?: string;
  returned?: string;
  uniqueness?: string;
  subAttributes?: Attribute[];
}

/** A schema's attributes, one row each, sub-attributes as `parent.child`. */
const flatten = (attributes: Attribute[] = [], prefix = ''): Array<Attribute & { path: string }> =>
  attributes.flatMap((a) => [{ ...a, path: `${prefix}${a.name}` }, ...flatten(a.subAttributes, `${prefix}${a.name}.`)]);

const ATTRIBUTE_COLUMNS: Column[] = [
  ['Attribute', 'path'],
  ['Type', 'type'],
  ['Multi', 'multiValued'],
  ['Required', 'required'],
  ['Mutability', 'mutability'],
  ['Returned', 'returned'],
  ['Uniqueness', 'uniqueness'],
];

export const schemas: Group = {
  name: 'schemas',
  summary: 'SCIM schemas and their attributes (Schemas)',
  verbs: [
    list({
      summary: 'List the SCIM schemas',
      path: `${BASE}/Schemas`,
      columns: [
        ['ID', 'id'],
        ['Name', 'name'],
        ['Attributes', (s) => (s.attributes ?? []).length],
        ['Description', 'description'],
      ],
    }),
    defineVerb({
      name: 'get',
      summary: "Show a SCIM schema's attributes (sub-attributes as parent.child)",
      args: ['<id>'],
      options: [SCIM_TOKEN_OPTION],
      examples: ['plinth scim schemas get urn:ietf:params:scim:schemas:core:2.0:User'],
      async run(f, [id], opts) {
        const client = await scimClient(f, opts);
        const response = await client.request<{ id: string; name?: string; attributes?: Attribute[] }>(
          'GET',
          `${BASE}/Schemas/${encodeURIComponent(id ?? '')}`,
          { headers: SCIM_JSON },
        );
        if (f.output.json) return f.output.raw(response);
        f.output.data(`${response.data.id}  ${response.data.name ?? ''}`.trimEnd());
        f.output.data(formatTable(ATTRIBUTE_COLUMNS, flatten(response.data.attributes)));
      },
    }),
  ],
};
