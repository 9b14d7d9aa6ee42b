import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';

export const Deployment = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    region: Type.Union([Type.String(), Type.Null()]),
    deploymentUrl: Type.String({ description: "The deployment's own API address (data API and its spec)." }),
    creationStep: Type.String(),
    createdAt: Timestamp,
  },
  { $id: 'Deployment' },
);

export const CreateDeploymentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false, $id: 'CreateDeploymentInput' },
);

export const DeploymentList = Connection(Deployment, 'DeploymentList');
export const DeploymentParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const deploymentSchemas = [Deployment, CreateDeploymentBody, DeploymentList];
