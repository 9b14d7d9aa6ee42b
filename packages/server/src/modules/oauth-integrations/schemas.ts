import { Type } from '@sinclair/typebox';
import { HttpUrl, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';

const Config = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);
const Scopes = Type.Union([Type.Array(Type.Unknown()), Type.Null()]);

/** Section 2.1. The client secret is write-only: accepted on create and update, never returned. */
export const OAuthIntegration = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    type: Type.String(),
    authUrl: Type.String({ format: 'url' }),
    tokenUrl: Type.String({ format: 'url' }),
    clientId: Type.String(),
    redirectUri: Type.String({ format: 'url' }),
    config: Type.Optional(Config),
    scopes: Type.Optional(Scopes),
    hasClientSecret: Type.Boolean({ description: 'Whether a client secret is stored; the secret itself is never returned.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'OAuthIntegration' },
);

const writable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.String({ minLength: 1, maxLength: 100 }),
  authUrl: HttpUrl,
  tokenUrl: HttpUrl,
  clientId: Type.String({ minLength: 1, maxLength: 500 }),
  clientSecret: Type.String({ minLength: 1, maxLength: 4096, writeOnly: true }),
  redirectUri: HttpUrl,
  config: Config,
  scopes: Scopes,
};

export const CreateOAuthIntegrationBody = Type.Object(
  {
    name: writable.name,
    type: writable.type,
    authUrl: writable.authUrl,
    tokenUrl: writable.tokenUrl,
    clientId: writable.clientId,
    clientSecret: Type.Optional(writable.clientSecret),
    redirectUri: writable.redirectUri,
    config: Type.Optional(writable.config),
    scopes: Type.Optional(writable.scopes),
  },
  { additionalProperties: false, $id: 'CreateOAuthIntegrationInput' },
);

export const UpdateOAuthIntegrationBody = Type.Partial(Type.Object(writable), {
  additionalProperties: false,
  minProperties: 1,
  $id: 'UpdateOAuthIntegrationInput',
});

export const OAuthIntegrationList = Connection(OAuthIntegration, 'OAuthIntegrationList');
export const OAuthIntegrationParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Integration id' }),
});

export const oauthIntegrationSchemas = [OAuthIntegration, CreateOAuthIntegrationBody, UpdateOAuthIntegrationBody, OAuthIntegrationList];
