import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { baseUrlOf } from '../../http/base-url.js';
import { requires } from '../../http/requirement.js';
import {
  ActiveAgentRegion,
  AIEngineerAccountSettings,
  AIEngineerSettings,
  SettingsQuery,
  UpdateActiveAgentRegionBody,
  UpdateAIEngineerSettingsBody,
} from './schemas.js';

const tags = ['AI Engineer'];

export const aiEngineerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ai = app.services.aiEngineer;

  app.get('/api/v1/ai-engineer/settings', {
    config: { auth: requires('AgentRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getAIEngineerSettings',
      tags,
      summary: 'Get ai engineer settings',
      description:
        "Where an AI engineer reaches Plinth (`url`) and a short-lived access token of the caller (`token`), issued on each call, for it to act as them; nothing of another user's. No token while the account has agents off, nor for an API key: the token acts as the key's user, who may hold more than the key.",
      querystring: SettingsQuery,
      response: { 200: Type.Ref(AIEngineerSettings) },
    },
    handler: async (request) => ai.settings(userPrincipalOf(request), baseUrlOf(request), request.query),
  });

  app.put('/api/v1/ai-engineer/settings', {
    config: { auth: requires('AgentAdmin', { resource: 'account', doing: 'change the AI engineer settings' }) },
    schema: {
      operationId: 'updateAIEngineerSettings',
      tags,
      summary: 'Update the AI engineer settings of the account',
      description: 'Whether agents are on, and the lifetime of the tokens getAIEngineerSettings issues. Fields left out keep their value.',
      body: Type.Ref(UpdateAIEngineerSettingsBody),
      response: { 200: Type.Ref(AIEngineerAccountSettings) },
    },
    handler: async (request) => ai.update(userPrincipalOf(request), request.body),
  });

  app.get('/api/v1/ai-engineer/active-region', {
    config: { auth: requires('AgentRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getMyActiveAgentRegion',
      tags,
      summary: 'Get my active agent region',
      description: "The caller's chosen region for agents; the first configured region until they choose one.",
      response: { 200: Type.Ref(ActiveAgentRegion) },
    },
    handler: async (request) => ai.activeRegion(userPrincipalOf(request)),
  });

  app.put('/api/v1/ai-engineer/active-region', {
    config: { auth: requires('AgentRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'updateMyActiveAgentRegion',
      tags,
      summary: 'Choose my active agent region',
      description: 'One of the configured regions (getRegions); 400 naming them otherwise.',
      body: Type.Ref(UpdateActiveAgentRegionBody),
      response: { 200: Type.Ref(ActiveAgentRegion) },
    },
    handler: async (request) => ai.chooseRegion(userPrincipalOf(request), request.body.regionName),
  });
};
