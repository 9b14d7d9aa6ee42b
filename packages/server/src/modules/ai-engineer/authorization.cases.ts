import type { OperationCase } from '../../test-support/authorization.js';

/** The AI engineer module's operations, for the shared authorisation suite (run by ai-engineer.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'getAIEngineerSettings',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/ai-engineer/settings' }),
  },
  {
    operation: 'updateAIEngineerSettings',
    method: 'PUT',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/ai-engineer/settings', body: { tokenTtlSeconds: 600 } }),
  },
  {
    operation: 'getMyActiveAgentRegion',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/ai-engineer/active-region' }),
  },
  {
    operation: 'updateMyActiveAgentRegion',
    method: 'PUT',
    targetsResource: false,
    prepare: async (_account, server) => ({ url: '/api/v1/ai-engineer/active-region', body: { regionName: server.config.regions[0] } }),
  },
];
