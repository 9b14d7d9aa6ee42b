import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestResponse, type TestServer } from '../../test-support/server.js';
import { newDeployment } from '../builds/test-fixtures.js';
import { dataDirOverride, sampleDeployment } from '../data-api/test-fixtures.js';
import { countCube } from '../../test-support/models.js';

/** Spec 5 rule 5: the CI gate's key holds exactly these on one deployment. */
const GATE = ['SchemaUpdate', 'SchemaRead', 'SchemaUpdateDevBranches', 'DeploymentRead'];
const QUERY = encodeURIComponent(JSON.stringify({ measures: ['orders.count'] }));

/** A deployment N with the sample built and its warehouse filled, N+1 beside it, and a gate key on N. */
async function gateSetup(server: TestServer) {
  const { account, deploymentId: n } = await sampleDeployment(server, server.services.dataApi);
  const next = await newDeployment(account);
  const created = await account.request({
    method: 'POST',
    url: '/api/v1/api-keys',
    as: account.admin,
    body: { name: 'ci', permissions: GATE, deploymentIds: [n] },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body).toMatchObject({ permissions: GATE, deploymentIds: [n], role: 'member' });
  const key = `Api-Key ${created.body.key as string}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    account.request({ method, url, as: key, body });
  return { account, n, next, key, call, build: `/build/api/v1/deployments/${n}` };
}

const onHost = (account: TestAccount, url: string, as: string) => {
  const parsed = new URL(url);
  return account.request({ method: 'GET', url: `${parsed.pathname}${parsed.search}`, as, headers: { host: parsed.host } });
};

describeOnStores(
  'a key holding exactly the gate permissions (spec 5 rule 5)',
  (server) => {
    it('runs the whole gate: read the deployment, branch, dev mode, put, commit, build status, a dev-branch token and its query', async () => {
      const { account, n, call, build } = await gateSetup(server());
      let deploymentUrl = '';
      let devBranch = '';
      let token = '';
      const steps: Array<[string, () => Promise<TestResponse>, number, (r: TestResponse) => void]> = [
        ['getDeployment', () => call('GET', `/api/v1/deployments/${n}`), 200, (r) => (deploymentUrl = r.body.deploymentUrl)],
        ['createDataModelBranch', () => call('POST', `${build}/branches`, { name: 'gate-src' }), 201, () => undefined],
        ['createDataModelBranch (to delete)', () => call('POST', `${build}/branches`, { name: 'gate-tmp' }), 201, () => undefined],
        ['deleteDataModelBranch', () => call('DELETE', `${build}/branches/gate-tmp`), 200, () => undefined],
        ['enterDevMode', () => call('POST', `${build}/dev-mode`, { branch: 'gate-src' }), 200, (r) => (devBranch = r.body.branchName)],
        [
          'putDataModelFile',
          () => call('PUT', `${build}/files/content`, { path: 'model/extra.yml', content: countCube('extra') }),
          200,
          () => undefined,
        ],
        ['validateDataModel (builds the dev branch)', () => call('POST', `${build}/validate`, { devMode: true }), 200, () => undefined],
        ['getDeploymentBuildStatus', () => call('GET', `/api/v1/deployments/${n}/build-status?branch=${devBranch}`), 200, () => undefined],
        [
          'deploymentToken for the dev branch',
          () => call('POST', `/api/v1/deployments/${n}/token`, { branch: devBranch }),
          200,
          (r) => (token = r.body.cubeApiToken),
        ],
      ];
      for (const [label, step, status, then] of steps) {
        const response = await step();
        expect(response.status, `${label}: ${response.text}`).toBe(status);
        then(response);
        if (label === 'putDataModelFile') await server().jobs.runUntilIdle();
      }
      await server().jobs.runUntilIdle();
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({ deploymentId: n, environment: expect.any(String) });

      const dev = await onHost(
        account,
        `${deploymentUrl}/dev-mode/${encodeURIComponent(devBranch)}/cubejs-api/v1/load?query=${QUERY}`,
        token,
      );
      expect(dev.status, dev.text).toBe(200);
      expect(dev.body.data).toHaveLength(1);
      const production = await onHost(account, `${deploymentUrl}/cubejs-api/v1/load?query=${QUERY}`, token);
      expect(production.status, production.text).toBe(403);

      const commit = await call('POST', `${build}/commit`, { message: 'gate' });
      expect(commit.status, commit.text).toBe(200);
      expect((await call('DELETE', `${build}/dev-mode`)).status).toBe(200);
      expect((await call('DELETE', `${build}/branches/gate-src`)).status).toBe(200);
    });

    it('cannot do anything more, and each refusal names the permission it lacks', async () => {
      const { account, n, next, call, build } = await gateSetup(server());
      expect((await call('POST', `${build}/branches`, { name: 'feature' })).status).toBe(201);
      const group = await server().services.groups.create(account.id, { name: 'analysts' });
      // Dev mode on the deploy branch is allowed; committing it back into production is not.
      expect((await call('POST', `${build}/dev-mode`, { branch: 'main' })).status).toBe(200);
      expect((await call('PUT', `${build}/files/content`, { path: 'model/x.yml', content: countCube('x') })).status).toBe(200);
      const table: Array<[string, () => Promise<TestResponse>, number, RegExp]> = [
        [
          'merge into the deploy branch',
          () => call('POST', `${build}/merge`, { source: 'feature', target: 'main' }),
          403,
          new RegExp(`does not grant DeploymentUpdate on deployment ${n}$`),
        ],
        [
          'commit into the deploy branch',
          () => call('POST', `${build}/commit`, { message: 'x' }),
          403,
          new RegExp(`does not grant DeploymentUpdate on deployment ${n}$`),
        ],
        [
          'deploy onto the deploy branch',
          () => call('POST', `${build}/uploads`, { branch: 'main', files: { 'model/x.yml': '0'.repeat(64) } }),
          403,
          new RegExp(`does not grant DeploymentUpdate on deployment ${n}$`),
        ],
        [
          'merge-to-default',
          () => call('POST', `${build}/merge-to-default`, { branch: 'feature' }),
          403,
          /does not grant DeploymentUpdate/,
        ],
        [
          'set variables',
          () => call('POST', `/api/v1/deployments/${n}/variables`, { variables: [{ name: 'X', value: 'y' }] }),
          403,
          /does not grant DeploymentUpdate/,
        ],
        ['mint a production token', () => call('POST', `/api/v1/deployments/${n}/token`, {}), 403, /does not grant DeploymentUpdate/],
        ['change deployment settings', () => call('DELETE', `/api/v1/deployments/${n}`), 403, /does not grant DeploymentDelete/],
        ['list users', () => call('GET', '/api/v1/users'), 403, /does not grant AccountRead/],
        [
          'change a user',
          () => call('PATCH', `/api/v1/users/${account.member.id}`, { role: 'admin' }),
          403,
          /does not grant UserAccessManage/,
        ],
        [
          'add a group member',
          () => call('POST', `/api/v1/user-groups/${group.id}/members`, { userIds: [account.member.id] }),
          403,
          /does not grant/,
        ],
        [
          'read policies',
          () => call('GET', `/api/v1/resource-policies?resourceType=Deployment&resourceId=${n}`),
          403,
          /does not grant AccountRead/,
        ],
        [
          'set a policy',
          () =>
            call('PUT', '/api/v1/resource-policies/user', {
              resourceType: 'Deployment',
              resourceId: n,
              userId: account.member.id,
              action: 'All',
            }),
          403,
          /does not grant PoliciesManage/,
        ],
        [
          'create a key with no more permissions',
          () => call('POST', '/api/v1/api-keys', { name: 'k', permissions: ['SchemaRead'], deploymentIds: [n] }),
          403,
          /does not grant ApiKeysManage/,
        ],
        [
          'create a key of a role',
          () => call('POST', '/api/v1/api-keys', { name: 'k', deploymentIds: [n] }),
          403,
          /does not grant ApiKeysManage/,
        ],
        [
          'read deployment N+1',
          () => call('GET', `/api/v1/deployments/${next}`),
          403,
          new RegExp(`does not grant DeploymentRead on deployment ${next}$`),
        ],
        [
          'branch on deployment N+1',
          () => call('POST', `/build/api/v1/deployments/${next}/branches`, { name: 'x' }),
          403,
          new RegExp(`deployment ${next}$`),
        ],
      ];
      for (const [label, attempt, status, message] of table) {
        const response = await attempt();
        expect(response.status, `${label}: ${response.text}`).toBe(status);
        expect(response.body.error, label).toMatch(message);
      }
      // What it may list is its own deployment only.
      const listed = await call('GET', '/api/v1/deployments');
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.items.map((d: { id: number }) => d.id)).toEqual([n]);
    });

    it("a dev-branch token names a dev-mode branch of the caller: another credential's is 404, a shared one 400", async () => {
      const { account, n, call, build } = await gateSetup(server());
      const theirs = await account.request({ method: 'POST', url: `${build}/dev-mode`, as: account.admin, body: { branch: 'main' } });
      expect(theirs.status, theirs.text).toBe(200);
      const other = await call('POST', `/api/v1/deployments/${n}/token`, { branch: theirs.body.branchName });
      expect(other.status, other.text).toBe(404);
      const shared = await call('POST', `/api/v1/deployments/${n}/token`, { branch: 'main' });
      expect(shared.status, shared.text).toBe(400);
      expect(shared.body.error).toMatch(/not a dev-mode branch/);
    });
  },
  dataDirOverride(),
);
