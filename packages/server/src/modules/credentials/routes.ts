import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { IdParams, NoContent } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { PLATFORM_CREDENTIALS } from '../../http/principal.js';
import { assertAccountWide, assertWithinReach } from './reach.js';
import { ApiKeyList, CreateApiKeyBody, CreatedApiKey, CreateScimTokenBody, CreatedScimToken, ScimTokenList } from './schemas.js';

const admin = { auth: { kinds: PLATFORM_CREDENTIALS, role: 'admin' as const } };

export const credentialRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/v1/api-keys', {
    config: { ...admin, carriesSecret: true },
    schema: {
      operationId: 'createApiKey',
      tags: ['API Keys'],
      summary: 'Create an API key',
      description: 'The key is returned once, in `key`; only its hash is stored.',
      body: Type.Ref(CreateApiKeyBody),
      response: { 201: Type.Ref(CreatedApiKey) },
    },
    handler: async (request, reply) => {
      const principal = principalOf(request);
      const body = request.body as { name: string; role?: 'admin' | 'member'; deploymentIds?: number[] | null };
      const reach = { role: body.role ?? 'member', deploymentIds: body.deploymentIds ?? null };
      // Reach first: a scoped key naming a deployment outside its scope learns nothing about whether it exists.
      assertWithinReach(principal, reach, 'create an API key');
      await app.services.deployments.assertAllExist(request.account.id, reach.deploymentIds ?? []);
      const created = await app.services.credentials.createApiKey(request.account.id, principal.userId!, { name: body.name, ...reach });
      return reply.code(201).send(created);
    },
  });

  app.get('/api/v1/api-keys', {
    config: admin,
    schema: {
      operationId: 'listApiKeys',
      tags: ['API Keys'],
      summary: 'List API keys',
      querystring: PageQuery,
      response: { 200: Type.Ref(ApiKeyList) },
    },
    handler: async (request) => app.services.credentials.listApiKeys(request.account.id, request.query, principalOf(request)),
  });

  app.delete('/api/v1/api-keys/:id', {
    config: admin,
    schema: {
      operationId: 'revokeApiKey',
      tags: ['API Keys'],
      summary: 'Revoke an API key',
      params: IdParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await app.services.credentials.revokeApiKey(request.account.id, request.params.id, principalOf(request));
      return reply.code(204).send(null);
    },
  });

  app.post('/api/v1/scim-tokens', {
    config: { ...admin, carriesSecret: true },
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
      assertAccountWide(principalOf(request), 'create a SCIM token, which reaches the whole account');
      const created = await app.services.credentials.createScimToken(request.account.id, principalOf(request).userId, name);
      return reply.code(201).send(created);
    },
  });

  app.get('/api/v1/scim-tokens', {
    config: admin,
    schema: {
      operationId: 'listScimTokens',
      tags: ['SCIM Tokens'],
      summary: 'List SCIM tokens',
      querystring: PageQuery,
      response: { 200: Type.Ref(ScimTokenList) },
    },
    handler: async (request) => {
      assertAccountWide(principalOf(request), 'manage SCIM tokens');
      return app.services.credentials.listScimTokens(request.account.id, request.query);
    },
  });

  app.delete('/api/v1/scim-tokens/:id', {
    config: admin,
    schema: {
      operationId: 'revokeScimToken',
      tags: ['SCIM Tokens'],
      summary: 'Revoke a SCIM token',
      params: IdParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      assertAccountWide(principalOf(request), 'manage SCIM tokens');
      await app.services.credentials.revokeScimToken(request.account.id, request.params.id);
      return reply.code(204).send(null);
    },
  });
};
