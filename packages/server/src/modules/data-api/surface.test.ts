import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sampleModelFiles } from '@plinth/semantic';
import { describeOnStores, TEST_BASE_DOMAIN, type TestAccount } from '../../test-support/server.js';
import { adminOf, commitFiles, enterDevMode } from '../builds/test-fixtures.js';
import { dataDirOverride, environmentToken, mint, sampleDeployment, withStaging } from './test-fixtures.js';

const QUERY = { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' } };
const load = (base: string) => `${base}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(QUERY))}`;

/** A request to another host than the account's: a deployment's own. */
const onHost = (account: TestAccount, host: string, url: string, as?: string | null) =>
  account.request({ method: 'GET', url, as: as ?? null, headers: { host } });

/** A TCP server that accepts connections and never says a word: a warehouse behind a black hole. */
let silent: Server;
const held: Socket[] = [];
let silentPort = 0;
let closedPort = 0;
beforeAll(async () => {
  silent = createServer((socket) => void held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describeOnStores(
  'where the data API is served (issue 14)',
  (server) => {
    it('a deployment host <slug>-<id>.<base domain> serves the path-based routes; <id> and a stale slug too', async () => {
      const { account, deploymentId } = await sampleDeployment(server(), server().services.dataApi);
      const token = await mint(account, deploymentId);
      const got = await account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}`, as: account.admin });
      const url = new URL(got.body.deploymentUrl as string);
      expect(url.host).toBe(`d-${deploymentId}.${TEST_BASE_DOMAIN}`);

      const pathBased = await account.request({ method: 'GET', url: load(`/d/${deploymentId}`), as: token });
      expect(pathBased.status, pathBased.text).toBe(200);
      for (const host of [url.host, `${deploymentId}.${TEST_BASE_DOMAIN}`, `renamed-${deploymentId}.${TEST_BASE_DOMAIN}:4000`]) {
        const hostBased = await onHost(account, host, load(''), token);
        expect(hostBased.status, `${host}: ${hostBased.text}`).toBe(200);
        expect(hostBased.body.data).toEqual(pathBased.body.data);
      }
      // The host names the deployment, not the account: the platform API is not served there.
      expect((await onHost(account, url.host, '/api/v1/deployments', `Api-Key ${account.admin.apiKey}`)).status).toBe(404);
      // Cube's 403s hold at this host as at its path.
      const missing = await onHost(account, url.host, '/cubejs-api/v1/meta');
      expect([missing.status, missing.body]).toEqual([403, { error: "Authorization header isn't set" }]);
    });

    it('a label naming no deployment is a 404 in the data API shape; account hosts are unchanged', async () => {
      const account = await server().newAccount();
      const unknown = await onHost(account, `nope-2147483000.${TEST_BASE_DOMAIN}`, '/cubejs-api/v1/meta', 'x');
      expect([unknown.status, unknown.body]).toEqual([404, { error: `No deployment is served at nope-2147483000.${TEST_BASE_DOMAIN}` }]);
      const tooLarge = await onHost(account, `d-2147483648.${TEST_BASE_DOMAIN}`, '/cubejs-api/v1/meta', 'x');
      expect(tooLarge.status).toBe(404);
      const own = await account.request({ method: 'GET', url: '/api/v1/deployments', as: account.admin });
      expect(own.status).toBe(200);
    });

    it('{deploymentUrl}/api/v1/spec serves the document with the deployment as its server, without a credential', async () => {
      const { account, deploymentId } = await sampleDeployment(server(), server().services.dataApi);
      const deploymentUrl = (await account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}`, as: account.admin })).body
        .deploymentUrl as string;
      const platform = await account.request({ method: 'GET', url: '/api/v1/spec' });
      const pathBased = await account.request({ method: 'GET', url: `/d/${deploymentId}/api/v1/spec` });
      const hostBased = await onHost(account, new URL(deploymentUrl).host, '/api/v1/spec');
      for (const response of [pathBased, hostBased]) {
        expect(response.status, response.text).toBe(200);
        expect(response.body.servers).toEqual([{ url: deploymentUrl, description: `Deployment ${deploymentId}` }]);
        expect(response.body.paths).toEqual(platform.body.paths);
      }
      const other = await server().newAccount();
      expect((await other.request({ method: 'GET', url: `/d/${deploymentId}/api/v1/spec` })).status).toBe(404);
      expect((await account.request({ method: 'GET', url: '/d/0/api/v1/spec' })).status).toBe(400);
    });

    it('staging is served at its dev-mode URL on the deployment host too, and the environments list shows that URL', async () => {
      const { account, deploymentId, staging, production } = await withStaging(server());
      for (const { id, api_credentials } of [production, staging]) {
        const url = new URL(api_credentials[0].url);
        expect(url.host).toMatch(new RegExp(`^d-\\d+\\.${TEST_BASE_DOMAIN.replace('.', '\\.')}$`));
        const token = await environmentToken(account, deploymentId, id);
        const meta = await onHost(account, url.host, `${url.pathname}/meta`, token);
        expect(meta.status, meta.text).toBe(200);
      }
      expect(new URL(staging.api_credentials[0].url).pathname).toBe('/dev-mode/staging/cubejs-api/v1');
    });

    it("an environment token opens its own environment's URL only", async () => {
      const { account, deploymentId, staging, production } = await withStaging(server());
      const deployUrl = `/d/${deploymentId}/cubejs-api/v1/meta`;
      const stagingUrl = `/d/${deploymentId}/dev-mode/staging/cubejs-api/v1/meta`;
      const status = async (url: string, token: string) => {
        const response = await account.request({ method: 'GET', url, as: token });
        return [response.status, response.status === 200 ? 'ok' : response.body.error];
      };
      const productionToken = await environmentToken(account, deploymentId, production.id);
      const stagingToken = await environmentToken(account, deploymentId, staging.id);
      const refused = (branch: string) => [403, `Invalid token for ${branch}: this token opens only the branch it was minted for`];
      expect(await status(deployUrl, productionToken)).toEqual([200, 'ok']);
      expect(await status(stagingUrl, productionToken)).toEqual(refused('branch staging'));
      expect(await status(stagingUrl, stagingToken)).toEqual([200, 'ok']);
      expect(await status(deployUrl, stagingToken)).toEqual(refused('the deploy branch (main)'));
      const load = await account.request({
        method: 'POST',
        url: `/d/${deploymentId}/cubejs-api/v1/load`,
        as: stagingToken,
        body: { query: QUERY },
      });
      expect([load.status, load.body.error]).toEqual(refused('the deploy branch (main)'));
      // A development environment: the admin's dev branch, its token good at that branch's URL only.
      const devBranch = await enterDevMode(account, deploymentId);
      await commitFiles(server().services, adminOf(account), deploymentId, sampleModelFiles(), devBranch);
      await server().jobs.runUntilIdle();
      const listed = await account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}/environments`, as: account.admin });
      const development = listed.body.data.find((e: { type: string }) => e.type === 'development') as { id: string };
      const devToken = await environmentToken(account, deploymentId, development.id);
      const devUrl = `/d/${deploymentId}/dev-mode/${encodeURIComponent(devBranch)}/cubejs-api/v1/meta`;
      expect(await status(devUrl, devToken)).toEqual([200, 'ok']);
      expect(await status(deployUrl, devToken)).toEqual(refused('the deploy branch (main)'));
      expect(await status(stagingUrl, devToken)).toEqual(refused('branch staging'));
      expect(await status(devUrl, productionToken)).toEqual(refused(`branch ${devBranch}`));
      // A deployment token minted without a branch is production's: the deploy branch only.
      const token = await mint(account, deploymentId);
      expect(await status(deployUrl, token)).toEqual([200, 'ok']);
      expect(await status(stagingUrl, token)).toEqual([403, expect.stringMatching(/^Invalid token for branch staging: /)]);
      expect(await status(devUrl, token)).toEqual([403, expect.stringMatching(/^Invalid token for branch dev-/)]);
    });

    it.each([
      ['accepts and never answers', () => silentPort, /no answer within 300 ms/],
      ['refuses the connection', () => closedPort, /ECONNREFUSED/],
    ])('a PostgreSQL warehouse that %s is a 400 naming the host, not a hang', async (_what, port, reason) => {
      const { account, deploymentId } = await sampleDeployment(server(), server().services.dataApi);
      const variables = [
        ['CUBEJS_DB_TYPE', 'postgres'],
        ['CUBEJS_DB_HOST', '127.0.0.1'],
        ['CUBEJS_DB_PORT', String(port())],
        ['CUBEJS_DB_NAME', 'shop'],
        ['CUBEJS_DB_USER', 'reader'],
      ].map(([name, value]) => ({ name, value }));
      const set = await account.request({
        method: 'POST',
        url: `/api/v1/deployments/${deploymentId}/variables`,
        as: account.admin,
        body: { variables },
      });
      expect(set.status, set.text).toBeLessThan(300);
      await server().jobs.runUntilIdle();
      const token = await mint(account, deploymentId);
      const response = await account.request({ method: 'GET', url: load(`/d/${deploymentId}`), as: token });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toContain(`Cannot connect to the PostgreSQL warehouse at 127.0.0.1:${port()}`);
      expect(response.body.error).toMatch(reason);
    });
  },
  { ...dataDirOverride(), PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS: '300' },
);
