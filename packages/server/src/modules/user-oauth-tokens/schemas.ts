import { Type, type Static } from '@sinclair/typebox';
import { IntegerId, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';

const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** What a user may see of a token they hold: never the tokens themselves, which stay sealed on the server. */
export const UserOAuthToken = Type.Object(
  {
    id: Type.Integer(),
    integrationId: Type.Integer({ description: 'The OAuth integration the token was issued through.' }),
    scopes: Type.Array(Type.String(), {
      description: 'The scopes the provider granted (or those the integration asks for, when it did not say).',
    }),
    tokenType: Type.String({ description: 'As the provider named it, usually Bearer.' }),
    expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'When the access token expires; null when the provider did not say.' }),
    hasRefreshToken: Type.Boolean({ description: 'Whether the provider issued a refresh token, so the token can be refreshed.' }),
    createdAt: Timestamp,
    refreshedAt: NullableTimestamp,
    revoked: Type.Boolean(),
    revokedAt: NullableTimestamp,
  },
  { $id: 'UserOAuthToken' },
);
export type UserOAuthTokenView = Static<typeof UserOAuthToken>;

export const CreateUserOAuthTokenBody = Type.Object(
  {
    integrationId: IntegerId,
    code: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: "The authorization code the provider sent to the integration's redirectUri.",
    }),
    codeVerifier: Type.Optional(
      Type.String({
        minLength: 43,
        maxLength: 128,
        pattern: '^[A-Za-z0-9._~-]+$',
        description: 'The PKCE code verifier (RFC 7636) the authorization request was made with.',
      }),
    ),
  },
  { additionalProperties: false, $id: 'CreateUserOAuthTokenInput' },
);
export type CreateUserOAuthToken = Static<typeof CreateUserOAuthTokenBody>;

export const UserOAuthTokenList = Connection(UserOAuthToken, 'UserOAuthTokenList');
export const UserOAuthTokenParams = Type.Object({ id: IntegerId });

export const userOAuthTokenSchemas = [UserOAuthToken, CreateUserOAuthTokenBody, UserOAuthTokenList];
