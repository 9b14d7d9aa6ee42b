import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { baseUrlOf } from '../../http/base-url.js';
import { NoContent } from '../../http/common-schemas.js';
import { requires } from '../../http/requirement.js';
import { OAuthError } from './oauth-error.js';
import { loginPageRoutes, parseForm } from './page-routes.js';
import {
  AcceptInviteBody,
  DEVICE_CODE_GRANT,
  DeviceCodeRequest,
  DeviceCodeResponse,
  OAuthTokenError,
  RevokeRequest,
  SetPasswordBody,
  TokenRequest,
  TokenResponse,
  UserIdParams,
  UserInvite,
  WhoAmI,
} from './schemas.js';

const tags = ['Authentication'];
const open = { auth: 'public' as const, needsAccount: true };
const openWithSecret = { ...open, carriesSecret: true };
/** RFC 8628 and RFC 6749 send form bodies; JSON is accepted too. */
const consumes = ['application/json', 'application/x-www-form-urlencoded'];

export const loginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const login = app.services.login;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, parseForm);

  app.post('/api/v1/auth/device/code', {
    config: openWithSecret,
    schema: {
      operationId: 'createDeviceCode',
      tags,
      consumes,
      summary: 'Start a device login (RFC 8628)',
      description: 'Returns a device code to poll with and a user code to approve on the verification page.',
      body: Type.Optional(Type.Ref(DeviceCodeRequest)),
      response: {
        200: Type.Ref(DeviceCodeResponse),
        429: Type.Ref('Error', { description: 'Too many logins started from this address; see Retry-After' }),
      },
    },
    handler: async (request) => login.device.start(request.account.id, request.body?.client_name ?? null, baseUrlOf(request), request.ip),
  });

  app.post('/api/v1/auth/token', {
    config: openWithSecret,
    schema: {
      operationId: 'createToken',
      tags,
      consumes,
      summary: 'Exchange a device code or a refresh token for tokens',
      description:
        'Device codes answer `authorization_pending`, `slow_down`, `access_denied` or `expired_token` until approved. Refresh tokens rotate: each works once.',
      body: Type.Ref(TokenRequest),
      response: { 200: Type.Ref(TokenResponse), 400: Type.Ref(OAuthTokenError) },
    },
    handler: async (request, reply) => {
      const { grant_type: grant, device_code: deviceCode, refresh_token: refreshToken } = request.body;
      try {
        if (grant === DEVICE_CODE_GRANT) {
          if (!deviceCode) throw new OAuthError('invalid_request', 'device_code is required');
          return await login.device.poll(request.account.id, deviceCode);
        }
        if (grant === 'refresh_token') {
          if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
          return await login.tokens.refresh(request.account.id, refreshToken);
        }
        throw new OAuthError('unsupported_grant_type', `Unsupported grant_type "${grant}"`);
      } catch (error) {
        if (error instanceof OAuthError) return reply.code(400).send(error.toBody());
        throw error;
      }
    },
  });

  app.post('/api/v1/auth/revoke', {
    config: open,
    schema: {
      operationId: 'revokeToken',
      tags,
      consumes,
      summary: 'Log out: revoke a login (RFC 7009)',
      description: 'Revokes every token of the login the given access or refresh token belongs to. Unknown tokens are accepted silently.',
      body: Type.Ref(RevokeRequest),
      response: { 200: Type.Object({}, { description: 'Revoked, or nothing to revoke' }) },
    },
    handler: async (request) => {
      await login.tokens.revoke(request.account.id, request.body.token);
      return {};
    },
  });

  app.get('/api/v1/auth/whoami', {
    config: { auth: requires('AccountRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getWhoAmI',
      tags,
      summary: 'Describe the calling credential',
      description: 'The account, the user, the credential (API key or access token) and the role a request acts with.',
      response: { 200: Type.Ref(WhoAmI) },
    },
    handler: async (request) => login.describe(request.account, userPrincipalOf(request)),
  });

  app.put('/api/v1/users/:id/password', {
    config: {
      auth: requires('UserAccessManage', {
        resource: 'account',
        doing: "set a user's password, which lets them sign in to the whole account",
      }),
    },
    schema: {
      operationId: 'setUserPassword',
      tags,
      summary: "Set an internal user's password",
      description: 'The user can then approve device logins with their e-mail and this password.',
      params: UserIdParams,
      body: Type.Ref(SetPasswordBody),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await login.signIn.setPassword(request.account.id, request.params.id, request.body.password);
      return reply.code(204).send(null);
    },
  });

  app.post('/api/v1/users/:id/invites', {
    config: {
      auth: requires('UserAccessManage', { resource: 'account', doing: 'invite a user, who then signs in to the whole account' }),
      carriesSecret: true,
    },
    schema: {
      operationId: 'createUserInvite',
      tags,
      summary: 'Create a one-time link that sets a password',
      params: UserIdParams,
      response: { 201: Type.Ref(UserInvite) },
    },
    handler: async (request, reply) => {
      const invite = await login.invites.create(request.account.id, request.params.id, userPrincipalOf(request).userId, baseUrlOf(request));
      return reply.code(201).send(invite);
    },
  });

  app.post('/api/v1/auth/invites/accept', {
    config: open,
    schema: {
      operationId: 'acceptInvite',
      tags,
      summary: 'Set a password with an invite token',
      body: Type.Ref(AcceptInviteBody),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await login.invites.accept(request.account.id, request.body.token, request.body.password);
      return reply.code(204).send(null);
    },
  });

  await app.register(loginPageRoutes);
};
