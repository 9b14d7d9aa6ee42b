import type { OperationCase } from '../../test-support/authorization.js';

/** The app-theme module's operations, for the shared authorisation suite (run by app-theme.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getAppTheme', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/app-theme' }) },
  {
    operation: 'updateAppTheme',
    method: 'PUT',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/app-theme', body: { light: { accentColor: '#123456' } } }),
  },
];
