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
  "A user or group holds one action per resource: PUT replaces it, `action: null` removes it. An action implies those below it (`All` every action, `DeploymentsManage` the Deployment ones, `DeploymentUpdate` `DeploymentRead`, `SchemaUpdate` and `SchemaUpdateDevBranches` `SchemaRead`, …). A policy on `Global` (resourceId 0) holds on every deployment. A user's access tokens hold their role's permissions plus their own and their groups' policies. The caller must hold every action it grants there. `Global` and `Deployment` are served; other resource types get 400.";

export const resourcePolicyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const policies = app.services.resourcePolicies;

  app.get('/api/v1/resource-policies', {
    config: { auth: requires('AccountRead') },
    schema: {
      operationId: 'getPolicies',
      tags,
      summary: 'Get policies',
      description: `The policies on a resource and those it inherits from the account. ${SEMANTICS}`,
      querystring: PoliciesQuery,
      response: { 200: Type.Ref(ResourcePolicies) },
    },
    handler: async (request) => policies.list(principalOf(request), request.query as { resourceType: ResourceType; resourceId: number }),
  });

  app.put('/api/v1/resource-policies/user', {
    config: { auth: requires('PoliciesManage', { doing: 'change resource policies' }) },
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
    config: { auth: requires('PoliciesManage', { doing: 'change resource policies' }) },
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
