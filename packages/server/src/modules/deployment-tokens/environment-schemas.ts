import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas.js';

/** Shapes of the reference's Environments operations (snake_case, `data` + offset pagination, as it has them). */
export const ENVIRONMENT_TYPES = ['production', 'staging', 'development'] as const;
export const ENVIRONMENT_TOKEN_MAX_SECONDS = 3600;

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const DeploymentEnvironmentApiCredential = Type.Object(
  {
    type: Type.Union([Type.Literal('rest'), Type.Literal('sql')]),
    version: Type.Integer({ minimum: 1 }),
    url: nullable(Type.String({ description: "The environment's data API base, to send its tokens to." })),
    host: Type.Union([Type.String(), Type.Null()]),
    port: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    database: Type.Union([Type.String(), Type.Null()]),
    user: Type.Optional(Type.String({ description: "The SQL API's user of this environment (type sql)." })),
    password: Type.Optional(
      Type.String({
        description: "The SQL API's password of this environment (type sql); a data API or embed token works too, as user token.",
      }),
    ),
  },
  { $id: 'DeploymentEnvironmentApiCredential' },
);

export const DeploymentEnvironment = Type.Object(
  {
    id: Type.String({ description: 'The id to name the environment by in the token operations.' }),
    type: Type.Union(ENVIRONMENT_TYPES.map((t) => Type.Literal(t))),
    branch: Type.Union([Type.String(), Type.Null()]),
    user: Type.Union([Type.String(), Type.Null()]),
    api_credentials: Type.Array(Type.Ref(DeploymentEnvironmentApiCredential)),
  },
  { $id: 'DeploymentEnvironment' },
);

export const DeploymentsPagination = Type.Object(
  { total: Type.Integer({ minimum: 0 }), offset: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 0 }) },
  { $id: 'DeploymentsPagination' },
);

export const DeploymentEnvironmentsListResponse = Type.Object(
  { data: Type.Array(Type.Ref(DeploymentEnvironment)), pagination: Type.Ref(DeploymentsPagination) },
  { $id: 'DeploymentEnvironmentsListResponse' },
);

export const DeploymentEnvironmentSqlCredentialResponse = Type.Object(
  {
    data: Type.Ref(DeploymentEnvironmentApiCredential, {
      description: 'The SQL API credential with its new password: the old one is refused from the next connection on.',
    }),
  },
  { $id: 'DeploymentEnvironmentSqlCredentialResponse' },
);

export const DeploymentEnvironmentToken = Type.Object(
  {
    token: Type.String(),
    security_context: Type.Object({}, { additionalProperties: true }),
    created_at: Timestamp,
    expires_at: Timestamp,
  },
  { $id: 'DeploymentEnvironmentToken' },
);

export const DeploymentEnvironmentTokensListResponse = Type.Object(
  { data: Type.Array(Type.Ref(DeploymentEnvironmentToken)), pagination: Type.Ref(DeploymentsPagination) },
  { $id: 'DeploymentEnvironmentTokensListResponse' },
);

export const DeploymentEnvironmentTokenResponse = Type.Object(
  { data: Type.Ref(DeploymentEnvironmentToken) },
  { $id: 'DeploymentEnvironmentTokenResponse' },
);

export const CreateDeploymentEnvironmentTokenInput = Type.Object(
  {
    security_context: Type.Object({}, { additionalProperties: true }),
    expires_in: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: ENVIRONMENT_TOKEN_MAX_SECONDS }), Type.Null()], {
        description: 'Lifetime in seconds; an hour when left out, at most an hour.',
      }),
    ),
    scopes: Type.Optional(
      Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Not supported: must be left out or null.' }),
    ),
  },
  { additionalProperties: false, $id: 'CreateDeploymentEnvironmentTokenInput' },
);

const Offset = Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }));
const Limit = Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 }));

export const EnvironmentsQuery = Type.Object(
  { type: Type.Optional(Type.Union(ENVIRONMENT_TYPES.map((t) => Type.Literal(t)))), offset: Offset, limit: Limit },
  { additionalProperties: false },
);
export const OffsetQuery = Type.Object({ offset: Offset, limit: Limit }, { additionalProperties: false });

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const EnvironmentParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), environmentId: Id });

export const environmentSchemas = [
  DeploymentEnvironmentApiCredential,
  DeploymentEnvironment,
  DeploymentsPagination,
  DeploymentEnvironmentsListResponse,
  DeploymentEnvironmentSqlCredentialResponse,
  DeploymentEnvironmentToken,
  DeploymentEnvironmentTokensListResponse,
  DeploymentEnvironmentTokenResponse,
  CreateDeploymentEnvironmentTokenInput,
];
