import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';
import { MAX_GROUP_NAME } from '../groups/service.js';
import { ATTRIBUTE_NAME } from '../user-attributes/check.js';
import { GroupNames } from '../embed-tenants/public.js';

const AttributeType = StringEnum(['string', 'number', 'string_array', 'number_array']);

/** Cube Cloud clients send `null` for an optional field they leave out: it means omitted (request.ts drops it). */
const Omissible = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** Section 2.6. The type must match the definition's; `null`, or no `value` at all, clears the stored value. */
export const EmbedUserAttributeInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    value: Type.Optional(
      Type.Union([Type.String(), Type.Number(), Type.Array(Type.String()), Type.Array(Type.Number()), Type.Null()], {
        description: 'Omitted is the same as null: the stored value is cleared.',
      }),
    ),
  },
  { additionalProperties: false, $id: 'EmbedUserAttributeInput' },
);

/** Section 2.8. `type` is immutable; the other fields change only when supplied and different. */
export const EmbedUserAttributeDefinition = Type.Object(
  {
    name: Type.String({ pattern: ATTRIBUTE_NAME.source, description: 'Letters, digits and _, 1 to 100 characters.' }),
    type: AttributeType,
    displayName: Omissible(Type.String({ maxLength: 200 })),
    defaultValue: Omissible(Type.String({ maxLength: 10_000 })),
    description: Omissible(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false, $id: 'EmbedUserAttributeDefinition' },
);

/** Section 2.9. A supplied non-empty description replaces a different stored one; it is never cleared ("" keeps it). */
export const EmbedGroupDefinition = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_GROUP_NAME }),
    description: Omissible(Type.String({ maxLength: 2000, description: 'An empty string leaves the stored description as it is.' })),
  },
  { additionalProperties: false, $id: 'EmbedGroupDefinition' },
);

/** Section 2.10. */
export const EmbedSessionSettings = Type.Object(
  {
    showDashboardChat: Omissible(
      Type.Boolean({ description: "Omitted or null: the account's Show dashboard chat setting. false hides, true shows the AI chat." }),
    ),
  },
  { additionalProperties: false, $id: 'EmbedSessionSettings' },
);

/** Section 2.5 as generate-session takes it: a `null` property is omitted, so the saved value is kept. */
export const EmbedSessionUserProfile = Type.Object(
  {
    displayName: Omissible(Type.String({ minLength: 1, maxLength: 200, description: 'Shown beside the avatar.' })),
    picture: Omissible(Type.String({ maxLength: 2048, description: 'Absolute http:// or https:// URL of an image.' })),
  },
  { additionalProperties: false, $id: 'EmbedSessionUserProfile' },
);

const Colour = Type.String({ minLength: 1, maxLength: 100, description: 'A CSS colour, e.g. #1a73e8.' });

/** Theme overrides carried into the embed token; the embedded pages apply them over the account's theme. */
export const EmbedTheme = Type.Object(
  {
    primaryColor: Omissible(Colour),
    font: Omissible(Type.String({ minLength: 1, maxLength: 200, description: 'A CSS font family.' })),
    chat: Omissible(Type.Object({ inputColor: Omissible(Colour) }, { additionalProperties: false })),
    analyticsChat: Omissible(
      Type.Object(
        {
          backgroundColor: Omissible(Colour),
          chatInput: Omissible(
            Type.Object({ backgroundColor: Omissible(Colour), borderColor: Omissible(Colour) }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: 'EmbedTheme' },
);

export const MAX_EPHEMERAL_TTL_SECONDS = 365 * 24 * 60 * 60;
export const MIN_EPHEMERAL_TTL_SECONDS = 60;

/**
 * Section 2.4 and the fields Cube Cloud clients add. The rules that tie fields together are the
 * service's, so their messages can say why.
 */
export const GenerateSessionInput = Type.Object(
  {
    deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    externalId: Omissible(Type.String({ maxLength: 400, description: 'Lowercased and trimmed. Exactly one of externalId / internalId.' })),
    internalId: Omissible(
      Type.String({
        maxLength: 254,
        description: 'Username (e-mail) of an existing internal user. For an admin, only an account-wide admin key may mint.',
      }),
    ),
    email: Omissible(Type.String({ maxLength: 254, description: 'Only with externalId.' })),
    userProfile: Omissible(Type.Ref(EmbedSessionUserProfile)),
    embedTenantName: Omissible(
      Type.String({
        minLength: 5,
        maxLength: 36,
        pattern: '^[a-z][a-z0-9-]*[a-z0-9]$',
        description: 'a-z, 0-9 and -, starting with a letter, ending with a letter or digit. Defaults to the account.',
      }),
    ),
    creatorMode: Omissible(Type.Boolean({ description: 'Requires the useCreatorMode tenant setting.' })),
    userAttributes: Omissible(Type.Array(Type.Ref(EmbedUserAttributeInput), { maxItems: 1000 })),
    groups: Omissible(GroupNames),
    roles: Omissible(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 100,
        description: "The embedded user's roles, carried into the token and the data API's security context. Only with externalId.",
      }),
    ),
    userAttributeDefinitions: Omissible(Type.Array(Type.Ref(EmbedUserAttributeDefinition), { maxItems: 1000 })),
    groupDefinitions: Omissible(Type.Array(Type.Ref(EmbedGroupDefinition), { maxItems: 1000 })),
    securityContext: Omissible(Type.Object({}, { additionalProperties: true, description: 'Passed to data queries.' })),
    isEphemeral: Omissible(
      Type.Boolean({
        description:
          'A new external user that is removed after ephemeralTtlSeconds and does not count toward the external-user limit. ' +
          'An existing ephemeral user gets a new expiry; a kept user cannot be made ephemeral. Only with externalId.',
      }),
    ),
    ephemeralTtlSeconds: Omissible(
      Type.Integer({
        minimum: MIN_EPHEMERAL_TTL_SECONDS,
        maximum: MAX_EPHEMERAL_TTL_SECONDS,
        description:
          'How long the ephemeral user is kept (default 86400, the token lifetime); the token expires no later. Only with isEphemeral: true.',
      }),
    ),
    publicDashboardId: Omissible(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'The only dashboard the session, and the token exchanged from it, may open.',
      }),
    ),
    embedTheme: Omissible(Type.Ref(EmbedTheme)),
    settings: Omissible(Type.Ref(EmbedSessionSettings)),
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
  EmbedSessionUserProfile,
  EmbedTheme,
  GenerateSessionInput,
  GenerateSessionResponse,
  EmbedSessionIdInput,
  EmbedTokenResponse,
  EmbedSessionRecord,
  EmbedSessionList,
];
