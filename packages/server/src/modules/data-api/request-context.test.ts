import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileRequirement, deploymentParam, requires } from '../../http/requirement.js';
import type { AccountRow } from '../../store/schema.js';
import { contextFor } from '../../pipeline/context.js';
import { describeOnStores } from '../../test-support/server.js';
import { policyDeployment, type Credential, type PolicyDeployment } from './policies-test-credentials.js';
import { textRows } from './policies-test-personas.js';
import { dataDirOverride } from './test-fixtures.js';

const BY_COUNTRY = { measures: ['customers.count'], dimensions: ['customers.country'], order: { 'customers.country': 'asc' } };

/**
 * `load` and `meta` asked with a request context, as a report's refresh, a notification, the chat
 * or the SQL listener ask them: no HTTP request, the same answer a route gives the same credential,
 * the model's access policies applied.
 */
describeOnStores(
  'the data API called with a request context',
  (server) => {
    let d: PolicyDeployment;
    beforeAll(async () => {
      d = await policyDeployment(server(), 'duckdb');
    });
    afterAll(() => d?.warehouse.close());

    /** The context the pipeline builds for a credential on the deployment's account, without Fastify. */
    const contextOf = (authorization: string) => {
      const requirement = requires('DataApiQuery', { kinds: ['dataToken'], resource: deploymentParam() });
      const admitted = {
        kinds: requirement.kinds,
        check: compileRequirement(requirement),
        input: { params: { deploymentId: d.deploymentId } },
      };
      return server().app.pipeline.contextOf({ host: d.account.host, authorization }, admitted);
    };
    const route = async (token: string, path: string) => {
      const response = await d.account.request({ method: 'GET', url: `${d.base}${path}`, as: token });
      expect(response.status, response.text).toBe(200);
      return response.body;
    };

    it.each<[string, Credential, string]>([
      ['a data API token signed for the UK', { kind: 'data', securityContext: { country: 'UK' } }, 'UK'],
      ['an embed token of a sales user in Germany', { kind: 'embed', groups: ['sales'], country: 'Germany' }, 'Germany'],
    ])('%s: the same rows and members as the route gives it', async (_name, credential, country) => {
      const token = await d.mint(credential);
      const context = await contextOf(token);
      const target = { deploymentId: d.deploymentId };
      const dataApi = server().services.dataApi;

      const loaded = (await dataApi.load(context, target, BY_COUNTRY)) as { data: Array<Record<string, unknown>> };
      expect(textRows(loaded.data)).toEqual([{ 'customers.country': country, 'customers.count': expect.any(String) }]);
      const routed = await route(token, `/load?query=${encodeURIComponent(JSON.stringify(BY_COUNTRY))}`);
      expect(routed.data).toEqual(loaded.data);

      const meta = await dataApi.meta(context, target);
      expect(await route(token, '/meta')).toEqual(JSON.parse(JSON.stringify(meta)));
      const customers = meta.cubes.find((cube) => cube.name === 'customers')!;
      expect(JSON.stringify(customers)).not.toContain('customers.email');
    });

    it("an internal user's context (a report's refresh) sees what the user's groups and attributes open", async () => {
      const user = await d.account.addUser('member');
      const sales = (await server().services.groups.list(d.account.id, {})).items.find((g) => g.name === 'sales')!;
      await server().services.groups.setUserGroups(d.account.id, user.id, [sales.id]);
      await server().services.userAttributes.setValues(d.account.id, user.id, [{ name: 'country', value: 'UK' }]);
      const row = (await server().services.accounts.findById(d.account.id)) as AccountRow;
      const principal = await server().app.pipeline.credentials.fromText(row, user.apiKey, ['apiKey']);
      const context = contextFor(principal);
      const target = { deploymentId: d.deploymentId };

      const loaded = (await server().services.dataApi.load(context, target, BY_COUNTRY)) as { data: Array<Record<string, unknown>> };
      expect(textRows(loaded.data)).toEqual([{ 'customers.country': 'UK', 'customers.count': expect.any(String) }]);
      const { cubes } = await server().services.dataApi.meta(context, target, { onlyViews: false });
      const members = JSON.stringify(cubes.find((cube) => cube.name === 'customers'));
      expect(members).toContain('customers.country');
      expect(members).not.toContain('customers.email');
      // A member the user's group leaves out is refused by name, as the route refuses it.
      await expect(
        server().services.dataApi.load(context, target, { measures: ['customers.count'], dimensions: ['customers.email'] }),
      ).rejects.toMatchObject({
        status: 400,
      });
    });
  },
  dataDirOverride(),
);
