import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas.js';
import { MAX_NAME_LENGTH, MAX_VALUE_BYTES, MAX_VARIABLES } from './rules.js';

const Name = Type.String({
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  description: 'Upper-case letters, digits and underscores, not starting with a digit (`[A-Z_][A-Z0-9_]*`).',
});

export const DeploymentVariable = Type.Object(
  {
    name: Type.String(),
    value: Type.String({ description: 'The value, or `****` for a secret: no character of a secret is ever shown.' }),
    secret: Type.Boolean({ description: 'Whether the value is masked; always true for names containing PASS, SECRET, KEY or TOKEN.' }),
    updatedAt: Timestamp,
  },
  { $id: 'DeploymentVariable' },
);

export const DeploymentVariableList = Type.Object(
  { items: Type.Array(Type.Ref(DeploymentVariable), { description: 'Every variable of the deployment, by name.' }) },
  { $id: 'DeploymentVariableList' },
);

export const SetDeploymentVariablesBody = Type.Object(
  {
    variables: Type.Array(
      Type.Object(
        {
          name: Name,
          value: Type.String({ minLength: 1, maxLength: MAX_VALUE_BYTES, description: 'At most 64 KiB of UTF-8.' }),
          secret: Type.Optional(Type.Boolean({ description: 'Mask the value in listings (default: only for credential names).' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_VARIABLES },
    ),
  },
  { additionalProperties: false, $id: 'SetDeploymentVariablesInput' },
);

export const DeploymentVariableParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  name: Name,
});

export const deploymentVariableSchemas = [DeploymentVariable, DeploymentVariableList, SetDeploymentVariablesBody];
