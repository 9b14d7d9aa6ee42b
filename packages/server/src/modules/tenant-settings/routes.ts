import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requires } from '../../http/requirement.js';
import { TenantSettings, UpdateTenantSettingsBody } from './schemas.js';

const tags = ['Tenant Settings'];

export const tenantSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = app.services.tenantSettings;

  app.get('/api/v1/tenant-settings', {
    config: { auth: requires('AccountRead', { resource: 'withinScope' }) },
    schema: { operationId: 'getTenantSettings', tags, summary: 'Get the tenant settings', response: { 200: Type.Ref(TenantSettings) } },
    handler: async (request) => settings.get(request.account.id),
  });

  app.patch('/api/v1/tenant-settings', {
    config: { auth: requires('AccountManage', { resource: 'account' }) },
    schema: {
      operationId: 'updateTenantSettings',
      tags,
      summary: 'Update the tenant settings',
      description: 'Only the supplied settings change. `maxExternalUsers` is read-only (PLINTH_MAX_EXTERNAL_USERS).',
      body: Type.Ref(UpdateTenantSettingsBody),
      response: { 200: Type.Ref(TenantSettings) },
    },
    handler: async (request) => settings.update(request.account.id, request.body),
  });
};
