import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';
import { MAX_GROUP_NAME } from '../groups/service.js';
import { ATTRIBUTE_NAME } from '../user-attributes/check.js';
import { EmbedUserProfile, GroupNames } from '../embed-tenants/schemas.js';

const AttributeType = StringEnum(['string', 'number', 'string_array', 'number_array']);

/** Section 2.6. The type must match the definition's; `null` clears the stored value. */
export const EmbedUserAttributeInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    value: Type.Union([Type.String(), Type.Number(), Type.Array(Type.String()), Type.Array(Type.Number()), Type.Null()]),
  },
  { additionalProperties: false, $id: 'EmbedUserAttributeInput' },
);

/** Section 2.8. `type` is immutable; the other fields change only when supplied and different. */
export const EmbedUserAttributeDefinition = Type.Object(
  {
    name: Type.String({ pattern: ATTRIBUTE_NAME.source, description: 'Letters, digits and _, 1 to 100 characters.' }),
    type: AttributeType,
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
    defaultValue: Type.Optional(Type.String({ maxLength: 10_000 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false, $id: 'EmbedUserAttributeDefinition' },
);

/** Section 2.9. A supplied description replaces a different stored one; it is never cleared. */
export const EmbedGroupDefinition = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_GROUP_NAME }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false, $id: 'EmbedGroupDefinition' },
);

/** Section 2.10. */
export const EmbedSessionSettings = Type.Object(
  {
    showDashboardChat: Type.Optional(
      Type.Boolean({ description: "Omitted: the account's Show dashboard chat setting. false hides, true shows the AI chat." }),
    ),
  },
  { additionalProperties: false, $id: 'EmbedSessionSettings' },
);

/** Section 2.4. The rules that tie fields together are the service's, so their messages can say why. */
export const GenerateSessionInput = Type.Object(
  {
    deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    externalId: Type.Optional(Type.String({ maxLength: 400, description: 'Lowercased and trimmed. Exactly one of externalId / internalId.' })),
    internalId: Type.Optional(Type.String({ maxLength: 254, description: 'Username (e-mail) of an existing internal user.' })),
    email: Type.Optional(Type.String({ maxLength: 254, description: 'Only with externalId.' })),
    userProfile: Type.Optional(Type.Ref(EmbedUserProfile)),
    embedTenantName: Type.Optional(
      Type.String({
        minLength: 5,
        maxLength: 36,
        pattern: '^[a-z][a-z0-9-]*[a-z0-9]$',
        description: 'a-z, 0-9 and -, starting with a letter, ending with a letter or digit. Defaults to the account.',
      }),
    ),
    creatorMode: Type.Optional(Type.Boolean({ description: 'Requires the useCreatorMode tenant setting.' })),
    userAttributes: Type.Optional(Type.Array(Type.Ref(EmbedUserAttributeInput), { maxItems: 1000 })),
    groups: Type.Optional(GroupNames),
    userAttributeDefinitions: Type.Optional(Type.Array(Type.Ref(EmbedUserAttributeDefinition), { maxItems: 1000 })),
    groupDefinitions: Type.Optional(Type.Array(Type.Ref(EmbedGroupDefinition), { maxItems: 1000 })),
    securityContext: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Passed to data queries.' })),
    settings: Type.Optional(Type.Ref(EmbedSessionSettings)),
  },
  { additionalProperties: false, $id: 'GenerateSessionInput' },
);
export type GenerateSessionInput = Static<typeof GenerateSessionInput>;

export const GenerateSessionResponse = Type.Object(
  { sessionId: Type.String({ description: 'One-time secret for the signed-embedding URL; exchange it within 5 minutes.' }) },
  { $id: 'GenerateSessionResponse' },
);

export const EmbedSessionIdInput = Type.Object(
  { sessionId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false, $id: 'EmbedSessionIdInput' },
);

export const EmbedTokenResponse = Type.Object(
  { token: Type.String({ description: 'JWT (HS256), valid 24 hours.' }) },
  { $id: 'EmbedTokenResponse' },
);

/** One minted session, for auditing; the session id itself is a secret and never listed. */
export const EmbedSessionRecord = Type.Object(
  {
    id: Type.Integer(),
    createdAt: Timestamp,
    apiKeyId: Type.Union([Type.Integer(), Type.Null()], { description: 'The API key that minted it (null once the key is deleted).' }),
    deploymentId: Type.Integer(),
    embedTenantName: Type.String(),
    externalId: Type.Union([Type.String(), Type.Null()]),
    internalId: Type.Union([Type.String(), Type.Null()]),
    creatorMode: Type.Boolean(),
    exchanged: Type.Boolean(),
    exchangedAt: Type.Union([Timestamp, Type.Null()]),
    revoked: Type.Boolean(),
    revokedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'EmbedSessionRecord' },
);
export type EmbedSessionRecord = Static<typeof EmbedSessionRecord>;

export const EmbedSessionList = Connection(EmbedSessionRecord, 'EmbedSessionList');

export const embedSchemas = [
  EmbedUserAttributeInput,
  EmbedUserAttributeDefinition,
  EmbedGroupDefinition,
  EmbedSessionSettings,
  GenerateSessionInput,
  GenerateSessionResponse,
  EmbedSessionIdInput,
  EmbedTokenResponse,
  EmbedSessionRecord,
  EmbedSessionList,
];
