import { Type } from '@sinclair/typebox';
import { resourceTypes, type AttributeDef, type ResourceTypeDef } from './attributes.js';
import { URN } from './errors.js';
import { MAX_RESULTS } from './list-params.js';
import type { Meta } from './mappers.js';

/**
 * RFC 7644 §4 discovery, generated from the same attribute definitions the filter, sort and patch
 * code use, so what it advertises is what the server does.
 */
export function serviceProviderConfig(ctx: Meta, bulkActionLimit: number, maxPayloadSize: number) {
  return {
    schemas: [URN.serviceProviderConfig],
    documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
    patch: { supported: true },
    bulk: { supported: true, maxOperations: bulkActionLimit, maxPayloadSize },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'SCIM token',
        description: 'A SCIM token of the account, sent as "Authorization: Bearer <token>".',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${ctx.base}/ServiceProviderConfig` },
  };
}

export function resourceTypeResource(type: ResourceTypeDef, ctx: Meta) {
  return {
    schemas: [URN.resourceType],
    id: type.name,
    name: type.name,
    endpoint: type.endpoint,
    description: type.description,
    schema: type.schema,
    schemaExtensions: type.extensions.map((e) => ({ schema: e.schema, required: e.required })),
    meta: { resourceType: 'ResourceType', location: `${ctx.base}/ResourceTypes/${type.name}` },
  };
}

/** A resource type's core schema or one of its extensions (RFC 7643 §7). */
export type SchemaDef = Pick<ResourceTypeDef, 'schema' | 'schemaName' | 'description' | 'attributes'>;

export function schemaResource(type: SchemaDef, ctx: Meta) {
  return {
    schemas: [URN.schema],
    id: type.schema,
    name: type.schemaName,
    description: type.description,
    attributes: type.attributes.map(describe),
    meta: { resourceType: 'Schema', location: `${ctx.base}/Schemas/${type.schema}` },
  };
}

function describe(def: AttributeDef): Record<string, unknown> {
  const { subAttributes, canonicalValues, referenceTypes, ...rest } = def;
  return {
    ...rest,
    ...(canonicalValues ? { canonicalValues } : {}),
    ...(referenceTypes ? { referenceTypes } : {}),
    ...(subAttributes ? { subAttributes: subAttributes.map(describe) } : {}),
  };
}

export const allResourceTypes = [resourceTypes.User, resourceTypes.Group];

export function findResourceType(id: string) {
  return allResourceTypes.find((t) => t.name.toLowerCase() === id.toLowerCase());
}

/** Every schema /Schemas lists: each type's core schema, then its extensions. */
export const allSchemas: SchemaDef[] = [...allResourceTypes, ...allResourceTypes.flatMap((t) => t.extensions)];

export function findSchema(id: string) {
  return allSchemas.find((t) => t.schema.toLowerCase() === id.toLowerCase());
}

const open = { additionalProperties: true } as const;
const Schemas = Type.Array(Type.String());

export const ScimServiceProviderConfig = Type.Object(
  {
    schemas: Schemas,
    patch: Type.Object({ supported: Type.Boolean() }),
    bulk: Type.Object({ supported: Type.Boolean(), maxOperations: Type.Integer(), maxPayloadSize: Type.Integer() }),
    filter: Type.Object({ supported: Type.Boolean(), maxResults: Type.Integer() }),
    changePassword: Type.Object({ supported: Type.Boolean() }),
    sort: Type.Object({ supported: Type.Boolean() }),
    etag: Type.Object({ supported: Type.Boolean() }),
    authenticationSchemes: Type.Array(Type.Object({}, open)),
  },
  { ...open, $id: 'ScimServiceProviderConfig', description: 'RFC 7643 §5.' },
);

export const ScimResourceType = Type.Object(
  { schemas: Schemas, id: Type.String(), name: Type.String(), endpoint: Type.String(), schema: Type.String() },
  { ...open, $id: 'ScimResourceType', description: 'RFC 7643 §6.' },
);

export const ScimSchema = Type.Object(
  { schemas: Schemas, id: Type.String(), name: Type.String(), attributes: Type.Array(Type.Object({}, open)) },
  { ...open, $id: 'ScimSchema', description: 'RFC 7643 §7.' },
);

function discoveryList(item: { $id?: string }, $id: string) {
  return Type.Object(
    {
      schemas: Schemas,
      totalResults: Type.Integer(),
      itemsPerPage: Type.Integer(),
      startIndex: Type.Integer(),
      Resources: Type.Array(Type.Ref(item.$id!)),
    },
    { $id },
  );
}

export const ScimResourceTypeList = discoveryList(ScimResourceType, 'ScimResourceTypeList');
export const ScimSchemaList = discoveryList(ScimSchema, 'ScimSchemaList');
