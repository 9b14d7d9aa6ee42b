import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { NoContent } from '../../http/common-schemas.js';
import { requires } from '../../http/requirement.js';
import { SetSlackBotTokenInput, SlackBotTokenStatus } from './schemas.js';

const tags = ['Tenant Settings'];
const PATH = '/api/v1/tenant-settings/slack-bot-token';

/** The account's Slack bot token, a tenant setting kept apart because it is a secret: set, asked about, removed. */
export const deliveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tokens = app.services.delivery.slackTokens;

  app.get(PATH, {
    config: { auth: requires('AccountRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getSlackBotToken',
      tags,
      summary: 'Whether the account has a Slack bot token (never the token)',
      response: { 200: Type.Ref(SlackBotTokenStatus) },
    },
    handler: async (request) => tokens.status(request.account.id),
  });

  app.put(PATH, {
    config: { auth: requires('AccountManage', { resource: 'account' }) },
    schema: {
      operationId: 'setSlackBotToken',
      tags,
      summary: 'Set the Slack bot token notifications post to Slack channels with',
      body: Type.Ref(SetSlackBotTokenInput),
      response: { 200: Type.Ref(SlackBotTokenStatus) },
    },
    handler: async (request) => tokens.set(request.account.id, userPrincipalOf(request).userId, request.body.token),
  });

  app.delete(PATH, {
    config: { auth: requires('AccountManage', { resource: 'account' }) },
    schema: {
      operationId: 'deleteSlackBotToken',
      tags,
      summary: "Remove the account's Slack bot token: Slack notifications fail until one is set again",
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await tokens.delete(request.account.id);
      return reply.code(204).send(null);
    },
  });
};
