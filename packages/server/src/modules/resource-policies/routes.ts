import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { requires } from '../../http/requirement.js';
import {
  PoliciesQuery,
  ResourcePolicies,
  UpdatedPolicy,
  UpdateGroupPolicyBody,
  UpdateUserPolicyBody,
  type ResourceType,
} from './schemas.js';

const tags = ['Resource Policies'];
const SEMANTICS =
  "A user or group holds one action per resource: PUT replaces it, `action: null` removes it. An action implies those below it (`All` every action, `DeploymentsManage` the Deployment ones, `DeploymentUpdate` `DeploymentRead`, `SchemaUpdate` and `SchemaUpdateDevBranches` `SchemaRead`, `FolderManage` `FolderEdit`, `ReportManage` and `WorkbookManage`, …). A policy on `Global` (resourceId 0) holds on every deployment. A user's access tokens hold their role's permissions plus their own and their groups' policies. Workspace content (`Folder`, `Report`, `Workbook`, `Dashboard`) is private to its creator until a policy shares it; a policy on a folder reaches everything below it, a dashboard's workbook's reaches the dashboard. A content policy names an action of its type (a folder's may also name report and workbook actions). The caller must hold every action it grants there. `Agent`, `AgentSpace`, `ReportFolder` and `ChatThread` are not served: 400.";
const CHANGE =
  'On `Global` or a `Deployment` also requires `PoliciesManage` on the account; on a content item, its Manage action (`FolderManage`, `ReportManage`, `WorkbookManage`; the creator holds it) or `PoliciesManage`.';

/**
 * Policies lie on the account, a deployment or a content item, which the body or query names; the
 * service demands the resource's own permission (on Global, always account-wide).
 */
const change = requires('DeploymentRead', { resource: 'withinScope', doing: 'change resource policies', alsoDemands: CHANGE });

export const resourcePolicyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const policies = app.services.resourcePolicies;

  app.get('/api/v1/resource-policies', {
    config: { auth: requires('AccountRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getPolicies',
      tags,
      summary: 'Get policies',
      description: `The policies on a resource and those it inherits from the folders above it, its deployment and the account. A content item's need its Read action (404 without it). ${SEMANTICS}`,
      querystring: PoliciesQuery,
      response: { 200: Type.Ref(ResourcePolicies) },
    },
    handler: async (request) => policies.list(principalOf(request), request.query as { resourceType: ResourceType; resourceId: number }),
  });

  app.put('/api/v1/resource-policies/user', {
    config: { auth: change },
    schema: {
      operationId: 'updateUserPolicy',
      tags,
      summary: 'Update user policy',
      description: SEMANTICS,
      body: Type.Ref(UpdateUserPolicyBody),
      response: { 200: Type.Ref(UpdatedPolicy) },
    },
    handler: async (request) => policies.updateUser(principalOf(request), request.body as never),
  });

  app.put('/api/v1/resource-policies/group', {
    config: { auth: change },
    schema: {
      operationId: 'updateGroupPolicy',
      tags,
      summary: 'Update group policy',
      description: SEMANTICS,
      body: Type.Ref(UpdateGroupPolicyBody),
      response: { 200: Type.Ref(UpdatedPolicy) },
    },
    handler: async (request) => policies.updateGroup(principalOf(request), request.body as never),
  });
};
