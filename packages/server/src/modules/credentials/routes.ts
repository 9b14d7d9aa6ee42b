import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { IdParams, NoContent } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { requires } from '../../http/requirement.js';
import { ApiKeyList, CreateApiKeyBody, CreatedApiKey, CreateScimTokenBody, CreatedScimToken, ScimTokenList } from './schemas.js';

const apiKeys = { auth: requires('ApiKeysManage') };
const scimTokens = { auth: requires('ScimTokensManage', { doing: 'manage SCIM tokens' }) };

export const credentialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/v1/api-keys', {
    // Reach before existence: a scoped key naming a deployment outside its scope learns nothing about whether it exists.
    config: { auth: requires('ApiKeysManage', { resource: 'requestedCredential', doing: 'create an API key' }), carriesSecret: true },
    schema: {
      operationId: 'createApiKey',
      tags: ['API Keys'],
      summary: 'Create an API key',
      description: 'The key is returned once, in `key`; only its hash is stored.',
      body: Type.Ref(CreateApiKeyBody),
      response: { 201: Type.Ref(CreatedApiKey) },
    },
    handler: async (request, reply) => {
      const principal = userPrincipalOf(request);
      const body = request.body as { name: string; role?: 'admin' | 'member'; deploymentIds?: number[] | null };
      const reach = { role: body.role ?? 'member', deploymentIds: body.deploymentIds ?? null };
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
    config: { auth: requires('ScimTokensManage', { doing: 'create a SCIM token, which reaches the whole account' }), carriesSecret: true },
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
