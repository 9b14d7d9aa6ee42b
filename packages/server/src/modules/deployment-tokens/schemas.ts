import { Type } from '@sinclair/typebox';
import { MAX_EXPIRES_IN_SECONDS } from './tokens.js';

export const DeploymentTokenInput = Type.Object(
  {
    securityContext: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: "The security context the data API evaluates the model's access policies with." },
      ),
    ),
    expiresIn: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_EXPIRES_IN_SECONDS,
        description: 'Lifetime in seconds; 24 hours when left out, at most 30 days.',
      }),
    ),
    branch: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          "A dev-mode branch of the calling credential: the token then opens only that branch's dev-mode URL, and minting it needs `SchemaUpdateDevBranches` instead of `DeploymentUpdate`.",
      }),
    ),
  },
  { additionalProperties: false, $id: 'DeploymentTokenInput' },
);

export const DeploymentTokenResponse = Type.Object(
  { cubeApiToken: Type.String({ description: "A JWT for the deployment's data API, signed with the deployment's API secret." }) },
  { $id: 'DeploymentTokenResponse' },
);

export const TokenParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const deploymentTokenSchemas = [DeploymentTokenInput, DeploymentTokenResponse];
