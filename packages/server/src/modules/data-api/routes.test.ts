import { expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { adminOf, createBranch, commitFiles, newDeployment } from '../builds/test-fixtures.js';
import { sampleModelFiles } from '@plinth/semantic';
import { dataDirOverride, mint, sampleDeployment } from './test-fixtures.js';

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

    it('serves a shared branch at its dev-mode URL only once enabled as a staging environment', async () => {
      const { account, token, deploymentId } = await deployed(server());
      await createBranch(account, deploymentId, 'staging');
      const url = `/d/${deploymentId}/dev-mode/staging/cubejs-api/v1/meta`;
      const before = await account.request({ method: 'GET', url, as: token });
      expect(before.status, before.text).toBe(404);
      const enable = await account.request({
        method: 'POST',
        url: `/build/api/v1/deployments/${deploymentId}/branches/staging/enable`,
        as: account.admin,
        body: {},
      });
      expect(enable.status, enable.text).toBe(200);
      await commitFiles(server().services, adminOf(account), deploymentId, sampleModelFiles(), 'staging').catch(() => undefined);
      await server().jobs.runUntilIdle();
      const after = await account.request({ method: 'GET', url, as: token });
      expect(after.status === 200 || after.body.error === 'No successful build of branch staging yet', after.text).toBe(true);
      const missing = await account.request({ method: 'GET', url: `/d/${deploymentId}/dev-mode/nope/cubejs-api/v1/meta`, as: token });
      expect(missing.status).toBe(404);
    });
  },
  dataDirOverride(),
);
