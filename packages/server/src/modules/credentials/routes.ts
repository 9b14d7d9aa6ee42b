import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { IdParams, NoContent } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { requires } from '../../http/requirement.js';
import { badRequest } from '../../http/errors.js';
import { permissionCatalog } from '../../http/permissions.js';
import { ApiKeyList, CREATE_API_KEY_INPUT, CreatedApiKey, CreateScimTokenBody, CreatedScimToken, ScimTokenList } from './schemas.js';

// Listing shows, and revoking reaches, only keys within the caller's reach (the service's check).
const apiKeys = { auth: requires('ApiKeysManage', { resource: 'withinScope' }) };
const scimTokens = { auth: requires('ScimTokensManage', { resource: 'account', doing: 'manage SCIM tokens' }) };

export const credentialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/v1/api-keys', {
    // Reach before existence: a scoped key naming a deployment outside its scope learns nothing about whether it exists.
    config: { auth: requires('ApiKeysManage', { resource: 'requestedCredential', doing: 'create an API key' }), carriesSecret: true },
    schema: {
      operationId: 'createApiKey',
      tags: ['API Keys'],
      summary: 'Create an API key',
      description: 'The key is returned once, in `key`; only its hash is stored.',
      body: Type.Ref(CREATE_API_KEY_INPUT),
      response: { 201: Type.Ref(CreatedApiKey) },
    },
    // Before the requirement is checked: an unknown permission is a mistake to name, not a refusal.
    preValidation: async (request) => checkKeyPermissions(request.body),
    handler: async (request, reply) => {
      const principal = userPrincipalOf(request);
      const body = request.body as { name: string; role?: 'admin' | 'member'; deploymentIds?: number[] | null; permissions?: string[] };
      const reach = { role: body.role ?? 'member', deploymentIds: body.deploymentIds ?? null, permissions: body.permissions ?? null };
      await app.services.deployments.assertAllExist(request.account.id, reach.deploymentIds ?? []);
      const created = await app.services.credentials.createApiKey(request.account.id, principal.userId, { name: body.name, ...reach });
      return reply.code(201).send(created);
    },
  });

  app.get('/api/v1/api-keys', {
    config: apiKeys,
    schema: {
      operationId: 'listApiKeys',
      tags: ['API Keys'],
      summary: 'List API keys',
      querystring: PageQuery,
      response: { 200: Type.Ref(ApiKeyList) },
    },
    handler: async (request) => app.services.credentials.listApiKeys(request.account.id, request.query, userPrincipalOf(request)),
  });

  app.delete('/api/v1/api-keys/:id', {
    config: apiKeys,
    schema: {
      operationId: 'revokeApiKey',
      tags: ['API Keys'],
      summary: 'Revoke an API key',
      params: IdParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await app.services.credentials.revokeApiKey(request.account.id, request.params.id, userPrincipalOf(request));
      return reply.code(204).send(null);
    },
  });

  app.post('/api/v1/scim-tokens', {
    config: {
      auth: requires('ScimTokensManage', { resource: 'account', doing: 'create a SCIM token, which reaches the whole account' }),
      carriesSecret: true,
    },
    schema: {
      operationId: 'createScimToken',
      tags: ['SCIM Tokens'],
      summary: 'Create a SCIM token',
      description: 'For an identity provider; accepted only under /api/scim/v2. Returned once, in `token`.',
      body: Type.Ref(CreateScimTokenBody),
      response: { 201: Type.Ref(CreatedScimToken) },
    },
    handler: async (request, reply) => {
      const { name } = request.body as { name: string };
      const created = await app.services.credentials.createScimToken(request.account.id, userPrincipalOf(request).userId, name);
      return reply.code(201).send(created);
    },
  });

  app.get('/api/v1/scim-tokens', {
    config: scimTokens,
    schema: {
      operationId: 'listScimTokens',
      tags: ['SCIM Tokens'],
      summary: 'List SCIM tokens',
      querystring: PageQuery,
      response: { 200: Type.Ref(ScimTokenList) },
    },
    handler: async (request) => app.services.credentials.listScimTokens(request.account.id, request.query),
  });

  app.delete('/api/v1/scim-tokens/:id', {
    config: scimTokens,
    schema: {
      operationId: 'revokeScimToken',
      tags: ['SCIM Tokens'],
      summary: 'Revoke a SCIM token',
      params: IdParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await app.services.credentials.revokeScimToken(request.account.id, request.params.id);
      return reply.code(204).send(null);
    },
  });
};

/**
 * `permissions` name a closed list, replace the role and hold on named deployments only: a key
 * holding them on every deployment would reach what no deployment-limited permission should.
 */
function checkKeyPermissions(body: unknown): void {
  const { permissions, role, deploymentIds } = (body ?? {}) as { permissions?: unknown; role?: unknown; deploymentIds?: unknown };
  if (!Array.isArray(permissions)) return; // the schema words what is wrong with anything else
  const { keys } = permissionCatalog();
  const unknown = permissions.filter((name) => typeof name === 'string' && !keys.includes(name));
  if (unknown.length > 0) {
    throw badRequest(`Unknown permission ${unknown.map((n) => `"${n}"`).join(', ')}; a key may hold ${keys.join(', ')}`);
  }
  if (permissions.length === 0) throw badRequest('permissions is empty; name at least one, or leave it out for a key of a role');
  if (role !== undefined) throw badRequest('Give a key either a role or permissions, not both: permissions replace the role');
  if (!Array.isArray(deploymentIds) || deploymentIds.length === 0) {
    throw badRequest('A key with permissions holds them on deployments: name them in deploymentIds (--deployment)');
  }
}
