import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-hash.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export const DeviceCodeRequest = Type.Object(
  {
    client_id: Type.Optional(Type.String({ maxLength: 200, description: 'Ignored; public clients need no registration.' })),
    client_name: Type.Optional(
      Type.String({ maxLength: 200, description: 'Shown on the verification page, e.g. "plinth CLI on laptop".' }),
    ),
    scope: Type.Optional(Type.String({ maxLength: 500, description: 'Ignored; a login acts with the role of its user.' })),
  },
  { $id: 'DeviceCodeRequest' },
);

export const DeviceCodeResponse = Type.Object(
  {
    device_code: Type.String({ description: 'Secret the client polls the token endpoint with.' }),
    user_code: Type.String({ description: 'Short code the user types on the verification page.' }),
    verification_uri: Type.String({ format: 'uri' }),
    verification_uri_complete: Type.String({ format: 'uri' }),
    expires_in: Type.Integer({ description: 'Seconds until both codes expire.' }),
    interval: Type.Integer({ description: 'Seconds to wait between polls.' }),
  },
  { $id: 'DeviceCodeResponse' },
);

export const TokenRequest = Type.Object(
  {
    grant_type: Type.String({ description: `\`${DEVICE_CODE_GRANT}\` or \`refresh_token\`.` }),
    device_code: Type.Optional(Type.String({ maxLength: 200 })),
    refresh_token: Type.Optional(Type.String({ maxLength: 200 })),
    client_id: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { $id: 'TokenRequest' },
);

export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    refresh_token: Type.String({ description: 'Single use: each refresh returns a new one.' }),
  },
  { $id: 'TokenResponse' },
);

export const OAuthTokenError = Type.Object(
  {
    error: Type.String({
      description:
        'authorization_pending, slow_down, access_denied, expired_token, invalid_grant, invalid_request or unsupported_grant_type.',
    }),
    error_description: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'OAuthTokenError', additionalProperties: true },
);

export const RevokeRequest = Type.Object(
  {
    token: Type.String({ maxLength: 200, description: 'An access or refresh token; its whole login is revoked.' }),
    token_type_hint: Type.Optional(Type.String({ maxLength: 50 })),
    client_id: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { $id: 'RevokeRequest' },
);

const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, writeOnly: true });

export const SetPasswordBody = Type.Object({ password: Password }, { additionalProperties: false, $id: 'SetPasswordInput' });

export const UserInvite = Type.Object(
  {
    userId: Type.Integer(),
    email: Type.String(),
    token: Type.String({ description: 'Shown once; the link below carries it.' }),
    url: Type.String({ format: 'uri', description: 'One-time link where the user sets a password.' }),
    expiresAt: Timestamp,
  },
  { $id: 'UserInvite' },
);

export const AcceptInviteBody = Type.Object(
  { token: Type.String({ maxLength: 200 }), password: Password },
  { additionalProperties: false, $id: 'AcceptInviteInput' },
);

export const WhoAmI = Type.Object(
  {
    account: Type.Object({ id: Type.Integer(), name: Type.String() }),
    user: Type.Union([
      Type.Object({
        id: Type.Integer(),
        email: Type.Union([Type.String(), Type.Null()]),
        displayName: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ]),
    credential: Type.Object({
      kind: Type.String({ description: 'apiKey or accessToken' }),
      id: Type.Integer(),
      name: Type.Union([Type.String(), Type.Null()], { description: "The API key's name; null for access tokens." }),
      prefix: Type.Union([Type.String(), Type.Null()]),
    }),
    role: Type.String(),
    deploymentIds: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  },
  { $id: 'WhoAmI' },
);

export const UserIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'User id' }) });

export const loginSchemas = [
  DeviceCodeRequest,
  DeviceCodeResponse,
  TokenRequest,
  TokenResponse,
  OAuthTokenError,
  RevokeRequest,
  SetPasswordBody,
  UserInvite,
  AcceptInviteBody,
  WhoAmI,
];
