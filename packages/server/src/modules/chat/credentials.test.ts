import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { mint } from '../data-api/test-fixtures.js';
import { cases } from './authorization.cases.js';

const BAD_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJl';

async function embedToken(account: TestAccount, deploymentId: number, externalId = 'ann'): Promise<string> {
  const generated = await account.request({
    method: 'POST',
    url: '/api/v1/embed/generate-session',
    as: account.admin,
    body: { deploymentId, externalId },
  });
  expect(generated.status, generated.text).toBe(200);
  const exchanged = await account.request({
    method: 'POST',
    url: '/api/v1/embed/session/token',
    body: { sessionId: generated.body.sessionId },
  });
  return exchanged.body.token as string;
}

/** The deployment a prepared request acts on: the one in its URL, or the stored thread's. */
async function deploymentOfRequest(server: TestServer, account: TestAccount, url: string): Promise<number> {
  const deployment = /deployments\/(\d+)/.exec(url);
  if (deployment) return Number(deployment[1]);
  const agent = /agents\/(\d+)/.exec(url);
  if (agent)
    return (await server.store.db.selectFrom('agent').select('deployment_id').where('id', '=', Number(agent[1])).executeTakeFirstOrThrow())
      .deployment_id;
  const thread = /threads\/([0-9a-f-]{36})/.exec(url);
  if (thread)
    return (await server.store.db.selectFrom('chat_thread').select('deployment_id').where('id', '=', thread[1]!).executeTakeFirstOrThrow())
      .deployment_id;
  return (await server.services.deployments.create(account.id, { name: 'x' }, 'http://localhost')).id;
}

describeOnStores('chat credentials', (server) => {
  it('every chat operation refuses what it must and takes embed tokens and admin keys', async () => {
    for (const op of cases) {
      const account = await server().newAccount();
      const other = await server().newAccount();
      const { url, body } = await op.prepare(account, server());
      const deploymentId = await deploymentOfRequest(server(), account, url);
      const call = (as: string | TestAccount['admin'] | null, target = url, on = account) =>
        on.request({ method: op.method, url: target, body, as });
      const embedUrl = url.replace(/\?externalId=ann$/, '');
      const embedBody = op.method === 'POST' ? { input: 'Hi' } : undefined;
      const asEmbed = (token: string, target = embedUrl) => account.request({ method: op.method, url: target, body: embedBody, as: token });

      // Who may: an embed token of the account (for its own user) and, but on the deployment form, an admin's key.
      expect((await asEmbed(await embedToken(account, deploymentId))).status, op.operation).toBe(200);
      const admin = await call(account.admin);
      expect(admin.status, `${op.operation}: ${admin.text}`).toBe(op.operation === 'streamDeploymentChatState' ? 403 : 200);

      // Who may not.
      const missing = await call(null);
      expect([missing.status, missing.body.error], op.operation).toEqual([401, expect.stringMatching(/Missing Authorization/)]);
      const access = await call(`Bearer ${await account.accessToken(account.admin)}`);
      expect([access.status, access.body.error], op.operation).toEqual([401, expect.stringMatching(/not accepted here/)]);
      expect((await call(BAD_JWT)).status, op.operation).toBe(403);
      expect((await asEmbed(await mint(account, deploymentId))).status, `${op.operation}: a data API token`).toBe(403);
      const foreignToken = await embedToken(
        other,
        (await server().services.deployments.create(other.id, { name: 'o' }, 'http://localhost')).id,
      );
      expect((await asEmbed(foreignToken)).status, `${op.operation}: another account's embed token`).toBe(403);
      expect((await call(account.member)).status, `${op.operation}: a member`).toBe(403);
      expect((await call(other.admin)).status, `${op.operation}: another account's key`).toBe(401);

      // A key limited to another deployment, and another account's agent or thread.
      const elsewhere = (await server().services.deployments.create(account.id, { name: 'e' }, 'http://localhost')).id;
      const key = await server().services.credentials.createApiKey(account.id, account.admin.id, {
        name: 'scoped',
        role: 'admin',
        deploymentIds: [elsewhere],
      });
      const scoped = await call(`Api-Key ${key.key}`);
      const expected = op.operation === 'listChatThreads' ? 200 : (op.scopedStatus ?? 403);
      expect(scoped.status, `${op.operation}: scoped key ${scoped.text}`).toBe(expected);
      if (op.operation === 'listChatThreads') expect(scoped.body.threads).toEqual([]);
      if (op.targetsResource !== false) {
        const foreign = await op.prepare(other, server());
        const response = await account.request({ method: op.method, url: foreign.url, body: foreign.body, as: account.admin });
        expect(response.status, `${op.operation}: another account's resource`).toBe(
          op.operation === 'streamDeploymentChatState' ? 403 : 404,
        );
        const asToken = await asEmbed(await embedToken(account, deploymentId), foreign.url.replace(/\?externalId=ann$/, ''));
        expect(asToken.status, `${op.operation}: another account's resource, embed token`).toBe(404);
      }
    }
  });
});
