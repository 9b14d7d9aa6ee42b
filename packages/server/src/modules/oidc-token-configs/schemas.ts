import { Type, type Static } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';

/**
 * Asymmetric algorithms only: a config holds no shared secret, so HS* cannot be verified, and
 * `none` is never acceptable.
 */
export const OIDC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;
export const USER_CLAIMS = ['email', 'sub'] as const;

const Algorithm = StringEnum(OIDC_ALGORITHMS, { description: 'A JWS algorithm the issuer signs with.' });
const UserClaim = StringEnum(USER_CLAIMS, {
  description: "The claim that names the user: `email` (the user's e-mail, case-insensitive) or `sub` (the user's externalId).",
});
/**
 * Not the shared HttpUrl: its `url` format refuses localhost and loopback addresses, which a local
 * issuer in development uses; the service then demands https anywhere else (secure-url.ts).
 */
const IssuerUrl = Type.String({ format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://', maxLength: 2048 });
const Audience = Type.String({ minLength: 1, maxLength: 500 });

export const OidcTokenConfig = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    issuer: Type.String({ description: "The issuer's identifier, exactly as its tokens' `iss` claim states it." }),
    audiences: Type.Array(Type.String(), { description: 'A token is accepted when its `aud` names one of these.' }),
    jwksUri: Type.Union([Type.String(), Type.Null()], {
      description: "Where the issuer's signing keys are; null: read from the issuer's discovery document.",
    }),
    userClaim: UserClaim,
    algorithms: Type.Array(Algorithm),
    enabled: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'OidcTokenConfig' },
);

const writable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  issuer: IssuerUrl,
  audiences: Type.Array(Audience, { minItems: 1, maxItems: 20, uniqueItems: true }),
  jwksUri: Type.Union([IssuerUrl, Type.Null()]),
  userClaim: UserClaim,
  algorithms: Type.Array(Algorithm, { minItems: 1, uniqueItems: true }),
  enabled: Type.Boolean(),
};

export const CreateOidcTokenConfigBody = Type.Object(
  {
    name: writable.name,
    issuer: writable.issuer,
    audiences: writable.audiences,
    jwksUri: Type.Optional(writable.jwksUri),
    userClaim: Type.Optional(writable.userClaim),
    algorithms: Type.Optional(writable.algorithms),
    enabled: Type.Optional(writable.enabled),
  },
  { additionalProperties: false, $id: 'CreateOidcTokenConfigInput' },
);
export type CreateOidcTokenConfig = Static<typeof CreateOidcTokenConfigBody>;

export const UpdateOidcTokenConfigBody = Type.Partial(Type.Object(writable), {
  additionalProperties: false,
  minProperties: 1,
  $id: 'UpdateOidcTokenConfigInput',
});
export type UpdateOidcTokenConfig = Static<typeof UpdateOidcTokenConfigBody>;

export const OidcTokenConfigList = Connection(OidcTokenConfig, 'OidcTokenConfigList');
export const OidcTokenConfigParams = Type.Object({ id: IntegerId });

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const SUBJECT_TOKEN_TYPES = ['urn:ietf:params:oauth:token-type:id_token', 'urn:ietf:params:oauth:token-type:jwt'];
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token' as const;

/**
 * RFC 8693 section 2.1. Every field is optional here so that a missing one is answered in OAuth's
 * shape (`invalid_request`) rather than the platform's; unknown parameters are ignored, as RFC 6749
 * section 3.2 requires of a token endpoint.
 */
export const OidcTokenExchangeRequest = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ maxLength: 200, description: `\`${TOKEN_EXCHANGE_GRANT}\`` })),
    subject_token: Type.Optional(Type.String({ maxLength: 16_384, description: 'The ID token (a JWT) of a configured issuer.' })),
    subject_token_type: Type.Optional(
      Type.String({ maxLength: 200, description: SUBJECT_TOKEN_TYPES.map((t) => `\`${t}\``).join(' or ') }),
    ),
    requested_token_type: Type.Optional(Type.String({ maxLength: 200, description: `\`${ACCESS_TOKEN_TYPE}\` (the only kind issued).` })),
  },
  { $id: 'OidcTokenExchangeRequest' },
);
export type OidcTokenExchange = Static<typeof OidcTokenExchangeRequest>;

export const OidcTokenExchangeResponse = Type.Object(
  {
    access_token: Type.String({ description: 'A Plinth access token of the user the subject token names.' }),
    issued_token_type: Type.Literal(ACCESS_TOKEN_TYPE),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
  },
  { $id: 'OidcTokenExchangeResponse' },
);

/**
 * OAuth's error shape; a body the schema itself refuses (a NUL byte, a bad form escape) gets the
 * platform's error, which also fits here (`error` with `code` and `requestId`).
 */
export const OidcTokenExchangeError = Type.Object(
  {
    error: Type.String({ description: 'invalid_request, unsupported_grant_type, invalid_grant or temporarily_unavailable.' }),
    error_description: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'OidcTokenExchangeError', additionalProperties: true },
);

export const oidcTokenConfigSchemas = [
  OidcTokenConfig,
  CreateOidcTokenConfigBody,
  UpdateOidcTokenConfigBody,
  OidcTokenConfigList,
  OidcTokenExchangeRequest,
  OidcTokenExchangeResponse,
  OidcTokenExchangeError,
];
