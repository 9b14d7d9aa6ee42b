import { getVerb } from '../../core/rest.js';

export const show = {
  ...getVerb({ name: 'show', args: [], summary: 'Show the tenant settings (getTenantSettings)', path: () => '/api/v1/tenant-settings' }),
  aliases: ['get'],
};
