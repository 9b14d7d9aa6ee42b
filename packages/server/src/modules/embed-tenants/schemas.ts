import { Type, type Static } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';
import { MAX_GROUP_NAME } from '../groups/service.js';
import { MAX_EXTERNAL_ID } from './rules.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** Section 2.5: both properties optional; `picture` is checked for syntax only, never fetched. */
export const EmbedUserProfile = Type.Object(
  {
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Shown beside the avatar.' })),
    picture: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: 'Absolute http:// or https:// URL of an image; loaded by the browser, never by the server.',
      }),
    ),
  },
  { additionalProperties: false, $id: 'EmbedUserProfile' },
);

export const GroupNames = Type.Array(Type.String({ minLength: 1, maxLength: MAX_GROUP_NAME }), { maxItems: 1000 });

export const EmbedTenantGroup = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Nullable(Type.String()),
    userCount: Type.Integer({ description: 'External users of the embed tenant in this group.' }),
  },
  { $id: 'EmbedTenantGroup' },
);

export const EmbedTenantUserAttribute = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    type: StringEnum(['string', 'number', 'string_array', 'number_array']),
    displayName: Nullable(Type.String()),
    defaultValue: Nullable(Type.String()),
    description: Nullable(Type.String()),
  },
  { $id: 'EmbedTenantUserAttribute' },
);

const AttributeValueItem = Type.Object({ name: Type.String(), value: Type.Unknown() });

export const EmbedTenantUser = Type.Object(
  {
    externalId: Type.String(),
    email: Nullable(Type.String()),
    userProfile: Type.Object({ displayName: Nullable(Type.String()), picture: Nullable(Type.String()) }),
    groups: Type.Array(Type.String(), { description: 'Tenant-wide groups, by name.' }),
    tenantGroups: Type.Array(Type.String(), { description: "The embed tenant's own groups, by name." }),
    userAttributes: Type.Array(AttributeValueItem, { description: 'Values of tenant-wide attributes.' }),
    tenantUserAttributes: Type.Array(AttributeValueItem, { description: "Values of the embed tenant's own attributes." }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    expiresAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When an ephemeral user (generate-session isEphemeral) stops existing; null for a kept user.',
    }),
  },
  { $id: 'EmbedTenantUser' },
);

/** Section 4.5 rule 1: `userAttributes` and `securityContext` are not accepted here. */
export const ProvisionEmbedUserInput = Type.Object(
  {
    externalId: Type.String({ minLength: 1, maxLength: MAX_EXTERNAL_ID + 64 }),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    userProfile: Type.Optional(Type.Ref(EmbedUserProfile)),
    groups: Type.Optional(GroupNames),
    tenantGroups: Type.Optional(GroupNames),
  },
  { additionalProperties: false, $id: 'ProvisionEmbedUserInput' },
);
export type ProvisionEmbedUserInput = Static<typeof ProvisionEmbedUserInput>;

/**
 * Entries are typed for the spec but checked one by one by the service, so one bad entry fails
 * alone (4.5 rule 5): the route's `bulkEntries` tells the validation layer to leave them to it.
 */
export const ProvisionEmbedUsersInput = Type.Object(
  {
    users: Type.Array(Type.Ref(ProvisionEmbedUserInput), {
      description: 'User objects as for provisionEmbedUser. At most the bulkActionLimit tenant setting.',
    }),
  },
  { additionalProperties: false, $id: 'ProvisionEmbedUsersInput' },
);

export const ProvisionEmbedUsersResult = Type.Object(
  {
    succeeded: Type.Array(Type.Object({ index: Type.Integer(), externalId: Type.String() })),
    failed: Type.Array(
      Type.Object({
        index: Type.Integer(),
        externalId: Nullable(Type.String()),
        error: Type.Object({ status: Type.Integer(), message: Type.String() }),
      }),
    ),
  },
  { $id: 'ProvisionEmbedUsersResult' },
);
export type ProvisionEmbedUsersResult = Static<typeof ProvisionEmbedUsersResult>;

export const EmbedTenantGroupList = Connection(EmbedTenantGroup, 'EmbedTenantGroupList');
export const EmbedTenantUserAttributeList = Connection(EmbedTenantUserAttribute, 'EmbedTenantUserAttributeList');
export const EmbedTenantUserList = Connection(EmbedTenantUser, 'EmbedTenantUserList');

const TenantName = Type.String({ minLength: 1, maxLength: 63, description: 'Embed tenant name (the account name for the default one).' });
export const TenantParams = Type.Object({ embedTenantName: TenantName });
export const TenantItemParams = Type.Object({ embedTenantName: TenantName, id: IntegerId });
export const TenantUserParams = Type.Object({ embedTenantName: TenantName, externalId: Type.String({ minLength: 1, maxLength: 400 }) });

export const embedTenantSchemas = [
  EmbedUserProfile,
  EmbedTenantGroup,
  EmbedTenantUserAttribute,
  EmbedTenantUser,
  ProvisionEmbedUserInput,
  ProvisionEmbedUsersInput,
  ProvisionEmbedUsersResult,
  EmbedTenantGroupList,
  EmbedTenantUserAttributeList,
  EmbedTenantUserList,
];
