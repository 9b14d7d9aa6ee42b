import type { OperationCase } from '../../test-support/authorization.js';

/** The tenant settings' operations, for the shared authorisation suite (run by tenant-settings.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getTenantSettings', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/tenant-settings' }) },
  {
    operation: 'updateTenantSettings',
    method: 'PATCH',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/tenant-settings', body: { showDashboardChat: false } }),
  },
];
