import { Type } from '@sinclair/typebox';
import { IntegerId, StringEnum } from '../../http/common-schemas.js';
import { POLICY_ACTIONS } from '../../http/permissions.js';
import { CONTENT_TYPES } from './content-access.js';

/**
 * The reference's resource types, all accepted by the schema so a client of the reference gets
 * a clear 400 for the ones not served yet (agents, agent spaces, report folders, chat threads)
 * rather than a schema error.
 */
export const RESOURCE_TYPES = [
  'Global',
  'Deployment',
  'Report',
  'ReportFolder',
  'Agent',
  'AgentSpace',
  'Workbook',
  'Dashboard',
  'Folder',
  'ChatThread',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
/** The resource types served now; a new one is a new entry here and in the service's resolver. */
export const SERVED_TYPES: readonly ResourceType[] = ['Global', 'Deployment', ...CONTENT_TYPES];

export const ResourceTypeSchema = StringEnum(RESOURCE_TYPES, { $id: 'ResourcePolicyResourceType' });
export const PolicyActionSchema = StringEnum(POLICY_ACTIONS, {
  $id: 'ResourcePolicyAction',
  description: "An action of the reference's resource policies; `All` and `DeploymentsManage` stand for the actions below them.",
});

const ResourceId = Type.Integer({
  minimum: 0,
  maximum: 2_147_483_647,
  description: "The deployment's or the content item's id (a Dashboard's `id`, not its publicId); 0 for Global (the account).",
});
const Action = Type.Union([Type.Ref(PolicyActionSchema), Type.Null()], { description: 'The action to hold; null removes the policy.' });

export const PoliciesQuery = Type.Object(
  { resourceType: Type.Ref(ResourceTypeSchema), resourceId: ResourceId },
  { additionalProperties: false },
);

const UserPolicy = Type.Object({ userId: Type.Integer(), action: Type.Ref(PolicyActionSchema) });
const GroupPolicy = Type.Object({ groupId: Type.Integer(), action: Type.Ref(PolicyActionSchema) });
/** The reference's Folder shape (not registered under its name: the folders module owns `Folder`). */
const SourceFolder = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  position: Type.Integer(),
  type: StringEnum(['FOLDER', 'WORKBOOK'], { description: "FOLDER; WORKBOOK for a dashboard's workbook." }),
  deploymentId: Type.Integer(),
  createdBy: Type.Union([Type.Integer(), Type.Null()]),
  updatedBy: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
const Inherited = {
  sourceFolder: Type.Union([SourceFolder, Type.Null()], {
    description: "The folder the policy is on (or a dashboard's workbook); null for one on the deployment or the account (Global).",
  }),
};

export const ResourcePolicies = Type.Object(
  {
    userPolicies: Type.Array(UserPolicy, { description: 'Policies of users on this resource.' }),
    groupPolicies: Type.Array(GroupPolicy, { description: 'Policies of groups on this resource.' }),
    inheritedUserPolicies: Type.Array(Type.Composite([UserPolicy, Type.Object(Inherited)]), {
      description:
        'Policies of users that reach this resource from the folders above it, its deployment and the account (Global), nearest first.',
    }),
    inheritedGroupPolicies: Type.Array(Type.Composite([GroupPolicy, Type.Object(Inherited)]), {
      description:
        'Policies of groups that reach this resource from the folders above it, its deployment and the account (Global), nearest first.',
    }),
  },
  { $id: 'ResourcePoliciesResponse' },
);

export const UpdateUserPolicyBody = Type.Object(
  {
    resourceType: Type.Ref(ResourceTypeSchema),
    resourceId: ResourceId,
    userId: Type.Optional(Type.Union([IntegerId, Type.Null()], { description: 'The user the policy is for (required).' })),
    action: Type.Optional(Action),
  },
  { additionalProperties: false, $id: 'UpdateResourceUserPolicyBody' },
);

export const UpdateGroupPolicyBody = Type.Object(
  { resourceType: Type.Ref(ResourceTypeSchema), resourceId: ResourceId, groupId: IntegerId, action: Type.Optional(Action) },
  { additionalProperties: false, $id: 'UpdateResourceGroupPolicyBody' },
);

export const UpdatedPolicy = Type.Object(
  {
    resourceType: Type.Ref(ResourceTypeSchema),
    resourceId: Type.Integer(),
    userId: Type.Union([Type.Integer(), Type.Null()]),
    groupId: Type.Union([Type.Integer(), Type.Null()]),
    action: Type.Union([Type.Ref(PolicyActionSchema), Type.Null()], { description: 'The action now held; null when removed.' }),
  },
  { $id: 'UpdatedResourcePolicy' },
);

export const resourcePolicySchemas = [
  ResourceTypeSchema,
  PolicyActionSchema,
  ResourcePolicies,
  UpdateUserPolicyBody,
  UpdateGroupPolicyBody,
  UpdatedPolicy,
];
