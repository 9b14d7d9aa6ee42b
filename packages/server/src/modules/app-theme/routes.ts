import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { requires } from '../../http/requirement.js';
import { COLOUR_FORMS } from './public.js';
import { AppThemeResponse, UpdateAppThemeInput } from './schemas.js';

const tags = ['App Theme'];

export const appThemeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { appTheme } = app.services;

  app.get('/api/v1/app-theme', {
    config: { auth: requires('AccountRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getAppTheme',
      tags,
      summary: 'Get the app theme',
      description: "The account's theme; the defaults for whatever was never set.",
      response: { 200: Type.Ref(AppThemeResponse) },
    },
    handler: async (request) => appTheme.get(request.account.id),
  });

  app.put('/api/v1/app-theme', {
    config: { auth: requires('DashboardThemesManage', { resource: 'account', doing: "change the account's app theme" }) },
    schema: {
      operationId: 'updateAppTheme',
      tags,
      summary: 'Update the app theme',
      description:
        'Partial: only what the body names changes (`typography.fonts` is replaced whole); the result is returned. ' +
        `Colours take ${COLOUR_FORMS}. A \`fontRef\` is the id of one of \`typography.fonts\` or a CSS font-family list of up to ` +
        '10 families, each a generic family or a name of letters, digits, spaces, hyphens and underscores, optionally quoted. ' +
        'Font files and logos are absolute https:// URLs (logos may also be http://).',
      body: Type.Ref(UpdateAppThemeInput),
      response: { 200: Type.Ref(AppThemeResponse) },
    },
    handler: async (request) => appTheme.update(request.account.id, userPrincipalOf(request).userId, request.body),
  });
};
