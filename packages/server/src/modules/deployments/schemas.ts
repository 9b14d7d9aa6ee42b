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

const DeployMode = Type.Union([Type.Literal('cli'), Type.Literal('git')], { description: '`cli` lets the client upload the data model' });
const CreationMethod = Type.Union([Type.Literal('github'), Type.Literal('upload'), Type.Literal('ssh')]);

export const UpdateDeploymentBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    deployMode: Type.Optional(DeployMode),
    creationMethod: Type.Optional(CreationMethod),
    releaseChannelVersion: Type.Optional(
      Type.String({ minLength: 1, maxLength: 300, description: '`<version>`, `v<version>` or `<image_repo>:v<version>`' }),
    ),
    releaseChannel: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Moves to that channel's latest version" })),
  },
  { additionalProperties: false, $id: 'UpdateDeploymentInput' },
);

/** Every setting of a deployment, the engine version and channel in effect included (section 9 rule 5). */
export const DeploymentSettings = Type.Object(
  {
    ...Deployment.properties,
    deployMode: Type.Union([DeployMode, Type.Null()]),
    creationMethod: Type.Union([CreationMethod, Type.Null()]),
    releaseChannel: Type.String(),
    releaseChannelVersion: Type.String(),
    image: Type.String({ description: 'The engine image the version resolves to' }),
  },
  { $id: 'DeploymentSettings' },
);

export const EngineVersion = Type.Object({
  version: Type.String(),
  channel: Type.String(),
  latest: Type.Boolean({ description: "The channel's newest version" }),
  current: Type.Boolean({ description: 'The version and channel the deployment runs' }),
  passAs: Type.String({ description: 'The image reference to pass to --release-channel-version' }),
});
export const EngineVersionList = Type.Object({ items: Type.Array(EngineVersion) }, { $id: 'DeploymentVersionList' });

export const RegionList = Type.Object({ items: Type.Array(Type.Object({ name: Type.String() })) }, { $id: 'RegionList' });

export const DeploymentList = Connection(Deployment, 'DeploymentList');
export const DeploymentParams = Type.Object({ deploymentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const deploymentSchemas = [
  Deployment,
  CreateDeploymentBody,
  DeploymentList,
  UpdateDeploymentBody,
  DeploymentSettings,
  EngineVersionList,
  RegionList,
];
