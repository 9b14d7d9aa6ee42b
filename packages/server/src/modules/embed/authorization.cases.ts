import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

/** The audit id (what listEmbedSessions shows) of a session minted for it. */
async function auditId(account: TestAccount, server: TestServer): Promise<number> {
  const deployment = await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost');
  const body = { deploymentId: deployment.id, externalId: 'ann' };
  const minted = await account.request({ method: 'POST', url: '/api/v1/embed/generate-session', as: account.admin, body });
  if (minted.status !== 200) throw new Error(`generate-session: ${minted.status} ${minted.text}`);
  const audit = await account.request({ method: 'GET', url: '/api/v1/embed/sessions?first=1', as: account.admin });
  return (audit.body as { items: Array<{ id: number }> }).items[0]!.id;
}

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
  {
    operation: 'revokeEmbedSessionById',
    method: 'POST',
    successStatus: 204,
    targetsResource: false,
    prepare: async (account, server) => ({ url: `/api/v1/embed/sessions/${await auditId(account, server)}/revoke` }),
  },
];
