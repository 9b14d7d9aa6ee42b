import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { NoContent } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { requires } from '../../http/requirement.js';
import { CreateUserOAuthTokenBody, UserOAuthToken, UserOAuthTokenList, UserOAuthTokenParams } from './schemas.js';

const tags = ['User OAuth Tokens'];
// Each user sees and manages only their own tokens.
const holders = { auth: requires('OAuthIntegrationsIssueTokens', { resource: 'withinScope' }) };
const MINE = "Only the calling user's tokens: another user's token is not found (404). The tokens themselves are never returned.";

export const userOAuthTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tokens = app.services.userOAuthTokens;

  app.get('/api/v1/user-oauth-tokens', {
    config: holders,
    schema: {
      operationId: 'getUserOAuthTokens',
      tags,
      summary: 'List my OAuth tokens',
      description: `${MINE} Revoked tokens stay listed, marked revoked.`,
      querystring: PageQuery,
      response: { 200: Type.Ref(UserOAuthTokenList) },
    },
    handler: async (request) => tokens.list(userPrincipalOf(request), request.query),
  });

  app.post('/api/v1/user-oauth-tokens', {
    config: holders,
    schema: {
      operationId: 'createUserOAuthToken',
      tags,
      summary: 'Exchange an authorization code for an OAuth token',
      description: `Runs the authorization-code grant (RFC 6749 4.1.3, with the PKCE \`codeVerifier\` when given) at the integration's tokenUrl, with its clientId, client secret and redirectUri, and stores the tokens it issues, encrypted. A code the provider refuses is 400 naming its error; an unreachable provider is 502. ${MINE}`,
      body: Type.Ref(CreateUserOAuthTokenBody),
      response: { 201: Type.Ref(UserOAuthToken) },
    },
    handler: async (request, reply) => reply.code(201).send(await tokens.create(userPrincipalOf(request), request.body)),
  });

  app.post('/api/v1/user-oauth-tokens/:id/refresh', {
    config: holders,
    schema: {
      operationId: 'refreshUserOAuthToken',
      tags,
      summary: 'Refresh an OAuth token',
      description: `Runs the refresh_token grant at the integration's tokenUrl and replaces the stored tokens (the refresh token too, when the provider rotates it). A revoked token, or one without a refresh token, is 409. ${MINE}`,
      params: UserOAuthTokenParams,
      response: { 200: Type.Ref(UserOAuthToken) },
    },
    handler: async (request) => tokens.refresh(userPrincipalOf(request), request.params.id),
  });

  app.delete('/api/v1/user-oauth-tokens/:id', {
    config: holders,
    schema: {
      operationId: 'deleteUserOAuthToken',
      tags,
      summary: 'Revoke an OAuth token',
      description: `Asks the provider to revoke the token (RFC 7009) when the integration's config names a \`revocationUrl\`, then erases the stored tokens; the token stays listed, marked revoked. Revoking it again does nothing. ${MINE}`,
      params: UserOAuthTokenParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await tokens.revoke(userPrincipalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
};
