import { Type } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';
import { permissionCatalog } from '../../http/permissions.js';

const permissionNames = (keys: readonly string[]) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    uniqueItems: true,
    maxItems: 100,
    description: `Permissions the key holds on each of its deployments instead of its role's: any of ${keys.join(', ')}.`,
  });

export const RoleSchema = StringEnum(['admin', 'member'], { $id: 'Role' });

export const ApiKey = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    role: Type.Ref(RoleSchema),
    deploymentIds: Type.Union([Type.Array(Type.Integer()), Type.Null()], {
      description: 'Deployments the key is limited to; null for all.',
    }),
    permissions: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: "The key's own permissions on each of its deployments, replacing its role's; null for a key that holds its role's.",
    }),
    prefix: Type.String({ description: 'First characters of the key, to recognise it.' }),
    userId: Type.Integer({ description: 'Internal user the key acts for.' }),
    createdAt: Timestamp,
    lastUsedAt: Type.Union([Timestamp, Type.Null()]),
    revokedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'ApiKey' },
);

export const CreatedApiKey = Type.Composite([ApiKey, Type.Object({ key: Type.String({ description: 'Shown once.' }) })], {
  $id: 'CreatedApiKey',
});

export const CREATE_API_KEY_INPUT = 'CreateApiKeyInput';

/**
 * Built when the schemas are registered, once every module is loaded: the permissions a key may
 * name are declared by the modules that own them.
 */
const createApiKeyBody = (keys: readonly string[]) =>
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 200 }),
      role: Type.Optional(Type.Ref(RoleSchema, { default: 'member' })),
      deploymentIds: Type.Optional(Type.Union([Type.Array(IntegerId, { uniqueItems: true, maxItems: 1000 }), Type.Null()])),
      permissions: Type.Optional(permissionNames(keys)),
    },
    { additionalProperties: false, $id: CREATE_API_KEY_INPUT },
  );

export const ScimToken = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    prefix: Type.String(),
    createdAt: Timestamp,
    lastUsedAt: Type.Union([Timestamp, Type.Null()]),
    revokedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'ScimToken' },
);

export const CreatedScimToken = Type.Composite([ScimToken, Type.Object({ token: Type.String({ description: 'Shown once.' }) })], {
  $id: 'CreatedScimToken',
});

export const CreateScimTokenBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false, $id: 'CreateScimTokenInput' },
);

export const ApiKeyList = Connection(ApiKey, 'ApiKeyList');
export const ScimTokenList = Connection(ScimToken, 'ScimTokenList');

export const credentialSchemas = () => [
  RoleSchema,
  ApiKey,
  CreatedApiKey,
  createApiKeyBody(permissionCatalog().keys),
  ScimToken,
  CreatedScimToken,
  CreateScimTokenBody,
  ApiKeyList,
  ScimTokenList,
];
