import { expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { newDeployment } from '../builds/test-fixtures.js';
import { dataDirOverride, environmentToken, mint, sampleDeployment, withStaging } from './test-fixtures.js';

async function deployed(server: TestServer) {
  const set = await sampleDeployment(server, server.services.dataApi);
  const token = await mint(set.account, set.deploymentId);
  const base = `/d/${set.deploymentId}/cubejs-api/v1`;
  return { ...set, token, base };
}

const QUERY = { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' } };

describeOnStores(
  'data API over HTTP',
  (server) => {
    it('load by GET (URL-encoded JSON) and POST, bare and Bearer tokens, single and multi; meta', async () => {
      const { account, token, base } = await deployed(server());
      const get = await account.request({
        method: 'GET',
        url: `${base}/load?query=${encodeURIComponent(JSON.stringify(QUERY))}`,
        as: token,
      });
      expect(get.status, get.text).toBe(200);
      expect(get.body).toMatchObject({
        query: { measures: ['orders.count'] },
        annotation: { measures: { 'orders.count': expect.any(Object) } },
      });
      expect(get.body.data.length).toBeGreaterThan(0);

      const post = await account.request({
        method: 'POST',
        url: `${base}/load`,
        as: `Bearer ${token}`,
        body: { query: QUERY, queryType: 'multi' },
      });
      expect(post.status, post.text).toBe(200);
      expect(post.body).toMatchObject({ queryType: 'regularQuery', results: [{ data: get.body.data }] });

      const meta = await account.request({ method: 'GET', url: `${base}/meta`, as: token });
      expect(meta.status).toBe(200);
      expect(meta.body.cubes.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['orders', 'customers']));
    });

    it('sql and dry-run, by GET and POST', async () => {
      const { account, token, base } = await deployed(server());
      for (const verb of ['sql', 'dry-run']) {
        const get = await account.request({
          method: 'GET',
          url: `${base}/${verb}?query=${encodeURIComponent(JSON.stringify(QUERY))}`,
          as: token,
        });
        expect(get.status, get.text).toBe(200);
        const post = await account.request({ method: 'POST', url: `${base}/${verb}`, as: token, body: { query: QUERY } });
        expect(post.body).toEqual(get.body);
      }
    });

    it.each([
      ['malformed JSON', (base: string) => ({ method: 'GET' as const, url: `${base}/load?query=%7Bnope` }), /Invalid query format/],
      [
        'an unknown member',
        (base: string) => ({ method: 'POST' as const, url: `${base}/load`, body: { query: { measures: ['orders.nope'] } } }),
        /nope/,
      ],
      [
        'too many rows',
        (base: string) => ({
          method: 'POST' as const,
          url: `${base}/load`,
          body: { query: { measures: ['orders.count'], limit: 50_001 } },
        }),
        /maximum/,
      ],
      ['an unknown field', (base: string) => ({ method: 'POST' as const, url: `${base}/load`, body: { query: {}, extra: 1 } }), /extra/],
    ])('%s is a 400 with the message, as {error}', async (_name, request, message) => {
      const { account, token, base } = await deployed(server());
      const response = await account.request({ ...request(base), as: token });
      expect(response.status, response.text).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error']);
      expect(response.body.error).toMatch(message);
    });

    it("refuses with Cube's 403s: no header, a bad token, another deployment's token", async () => {
      const { account, token, base, deploymentId } = await deployed(server());
      const missing = await account.request({ method: 'GET', url: `${base}/meta`, as: null });
      expect([missing.status, missing.body]).toEqual([403, { error: "Authorization header isn't set" }]);
      const bad = await account.request({ method: 'GET', url: `${base}/meta`, as: `${token.slice(0, -4)}AAAA` });
      expect([bad.status, bad.body]).toEqual([403, { error: 'Invalid token' }]);
      const otherId = await newDeployment(account);
      const other = await mint(account, otherId);
      const foreign = await account.request({ method: 'GET', url: `${base}/meta`, as: other });
      expect([foreign.status, foreign.body]).toEqual([403, { error: 'Invalid token' }]);
      const key = await account.request({ method: 'GET', url: `/d/${deploymentId}/cubejs-api/v1/meta`, as: account.admin });
      expect(key.status).toBe(403);
    });

    it('a deployment with no successful build yet is a 400 naming the branch', async () => {
      const account = await server().newAccount();
      const deploymentId = await newDeployment(account);
      const token = await mint(account, deploymentId);
      const response = await account.request({ method: 'GET', url: `/d/${deploymentId}/cubejs-api/v1/meta`, as: token });
      expect([response.status, response.body]).toEqual([400, { error: 'No successful build of branch main yet' }]);
    });

    it('serves a shared branch at its dev-mode URL while enabled as a staging environment, to its environment token only', async () => {
      const { account, deploymentId, staging } = await withStaging(server());
      const token = await mint(account, deploymentId);
      const url = `/d/${deploymentId}/dev-mode/staging/cubejs-api/v1/meta`;
      const stagingToken = await environmentToken(account, deploymentId, staging.id);
      const served = await account.request({ method: 'GET', url, as: stagingToken });
      expect(served.status, served.text).toBe(200);
      expect(served.body.cubes.map((c: { name: string }) => c.name)).toContain('extra');
      // The deploy branch's token does not open it, enabled or not.
      expect((await account.request({ method: 'GET', url, as: token })).status).toBe(403);
      const disable = await account.request({
        method: 'POST',
        url: `/build/api/v1/deployments/${deploymentId}/branches/staging/disable`,
        as: account.admin,
        body: {},
      });
      expect(disable.status, disable.text).toBe(200);
      const disabled = await account.request({ method: 'GET', url, as: stagingToken });
      expect([disabled.status, disabled.body]).toEqual([
        404,
        { error: 'Branch staging is neither a dev branch nor an enabled staging branch' },
      ]);
      // A branch that does not exist is refused as any other branch the token was not minted for.
      const missing = await account.request({ method: 'GET', url: `/d/${deploymentId}/dev-mode/nope/cubejs-api/v1/meta`, as: token });
      expect([missing.status, missing.body.error]).toEqual([403, expect.stringMatching(/^Invalid token for branch nope: /)]);
    });
  },
  dataDirOverride(),
);
