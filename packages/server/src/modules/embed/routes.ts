import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { IdParams, NoContent } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { API_KEY_ONLY } from '../../http/principal.js';
import { deploymentField, requires } from '../../http/requirement.js';
import { EmbedSessionIdInput, EmbedSessionList, EmbedTokenResponse, GenerateSessionInput, GenerateSessionResponse } from './schemas.js';

const tags = ['Embed'];
// The session id is the credential of the exchange and the revocation; the Host still names the account.
const bySessionId = { auth: 'public' as const, needsAccount: true };

export const embedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const embed = app.services.embed;

  app.post('/api/v1/embed/generate-session', {
    config: { auth: requires('EmbedSessionsManage', { kinds: API_KEY_ONLY, resource: deploymentField() }), carriesSecret: true },
    schema: {
      operationId: 'generateSession',
      tags,
      summary: 'Generate an embed session',
      description:
        'Mints a one-time session for an external user (`externalId`) or an internal one (`internalId`), saving the ' +
        "external user's profile, groups and attribute values first. Exchange the `sessionId` within 5 minutes with " +
        'postTokenBySessionId. Admin keys only. 403 for a member key, when embedding is not enabled for the account ' +
        '(embeddingEnabled tenant setting), for a key scoped to other deployments, and for an internalId of an admin ' +
        'unless the key is an admin key for every deployment. A new external user past the account limit gets 422; ' +
        'ephemeral users (isEphemeral) do not count toward it. `null` for an optional field means omitted.',
      body: Type.Ref(GenerateSessionInput),
      response: { 200: Type.Ref(GenerateSessionResponse), 403: Type.Ref('Error'), 404: Type.Ref('Error'), 422: Type.Ref('Error') },
    },
    handler: async (request) => embed.generateSession(request.account, userPrincipalOf(request), request.body),
  });

  app.post('/api/v1/embed/session/token', {
    config: { ...bySessionId, carriesSecret: true },
    schema: {
      operationId: 'postTokenBySessionId',
      tags,
      summary: 'Exchange a session for an embed token',
      description: 'Single use, within 5 minutes of generate-session. An unknown, used, revoked or expired session gets 401.',
      body: Type.Ref(EmbedSessionIdInput),
      response: { 200: Type.Ref(EmbedTokenResponse), 401: Type.Ref('Error') },
    },
    handler: async (request) => embed.exchange(request.account, request.body.sessionId),
  });

  app.post('/api/v1/embed/session/revoke', {
    config: bySessionId,
    schema: {
      operationId: 'revokeEmbedSession',
      tags,
      summary: 'Revoke an embed session',
      description:
        'The session can no longer be exchanged, and tokens issued from it stop being accepted. Revoking twice is fine; a session this account never minted is 404.',
      body: Type.Ref(EmbedSessionIdInput),
      response: { 204: NoContent, 404: Type.Ref('Error') },
    },
    handler: async (request, reply) => {
      await embed.revoke(request.account, { sessionId: request.body.sessionId });
      return reply.code(204).send(null);
    },
  });

  app.post('/api/v1/embed/sessions/:id/revoke', {
    // As the audit it comes from, it reaches the sessions of every deployment.
    config: { auth: requires('EmbedSessionsManage', { resource: 'account' }) },
    schema: {
      operationId: 'revokeEmbedSessionById',
      tags,
      summary: 'Revoke an embed session by the id the audit lists',
      description:
        'For an admin who holds no session id: `id` is what listEmbedSessions shows. The same effect as revokeEmbedSession; a session this account never minted is 404.',
      params: IdParams,
      response: { 204: NoContent, 404: Type.Ref('Error') },
    },
    handler: async (request, reply) => {
      await embed.revoke(request.account, { id: request.params.id });
      return reply.code(204).send(null);
    },
  });

  app.get('/api/v1/embed/sessions', {
    // The audit lists the sessions of every deployment.
    config: { auth: requires('EmbedSessionsManage', { resource: 'account' }) },
    schema: {
      operationId: 'listEmbedSessions',
      tags,
      summary: 'List minted embed sessions (audit)',
      description:
        'When, by which API key, for which user, deployment and embed tenant; exchanged or not, revoked or not. Never the session id.',
      querystring: PageQuery,
      response: { 200: Type.Ref(EmbedSessionList) },
    },
    handler: async (request) => embed.list(request.account.id, request.query),
  });
};
