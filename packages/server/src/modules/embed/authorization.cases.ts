import type { OperationCase } from '../../test-support/authorization.js';

/** The embed module's authenticated operations, for the shared authorisation suite (run by sessions.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'generateSession',
    method: 'POST',
    prepare: async (account, server) => {
      const deployment = await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost');
      return { url: '/api/v1/embed/generate-session', body: { deploymentId: deployment.id, externalId: 'ann' } };
    },
  },
  { operation: 'listEmbedSessions', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/embed/sessions' }) },
];
