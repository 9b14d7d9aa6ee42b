import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { requires } from '../../http/requirement.js';
import { EmbedTheme } from '../embed/schemas.js';
import { COLOUR_FORMS } from '../app-theme/public.js';

const tags = ['Users Admin'];

/** The account's embed theme (reference getEmbedTheme) and its update (Plinth's updateEmbedTheme). */
export async function embedThemeRoutes(app: Parameters<FastifyPluginAsyncTypebox>[0]): Promise<void> {
  const { embedThemes } = app.services;

  app.get('/api/v1/users/embed-theme', {
    config: { auth: requires('AccountRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getEmbedTheme',
      tags,
      summary: 'Get the embed theme',
      description:
        "The account's theme for embedded dashboards and chats. An embed session's `embedTheme` overrides are laid over it; " +
        "a null property is not set, and the app theme's value applies.",
      response: { 200: Type.Ref(EmbedTheme) },
    },
    handler: async (request) => embedThemes.get(request.account.id),
  });

  app.put('/api/v1/users/embed-theme', {
    config: { auth: requires('DashboardThemesManage', { resource: 'account', doing: "change the account's embed theme" }) },
    schema: {
      operationId: 'updateEmbedTheme',
      tags,
      summary: 'Set the embed theme',
      description:
        'Replaces the theme: an omitted or null property is not set, `{}` clears every one. ' +
        `Colours (every \`...Color\`) take ${COLOUR_FORMS}. \`font\` is a CSS font-family list: up to 10 families, each a generic ` +
        'family or a name of letters, digits, spaces, hyphens and underscores, optionally quoted.',
      body: Type.Ref(EmbedTheme),
      response: { 200: Type.Ref(EmbedTheme) },
    },
    handler: async (request) => embedThemes.replace(request.account.id, userPrincipalOf(request).userId, request.body),
  });
}
