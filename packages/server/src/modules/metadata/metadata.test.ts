import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { policiesModelFiles } from '../data-api/policies-fixtures.js';
import { builtDeployment, cases } from './authorization.cases.js';

interface Entry {
  name: string;
  type: string;
  measures: Array<{ name: string }>;
  dimensions: Array<{ name: string }>;
  segments: Array<{ name: string }>;
}

const names = (list: Array<{ name: string }>) => list.map((m) => m.name);

/** A deployment built with the access-policy model; the member is in group `sales` (member_level includes id, name, country, count). */
async function setup(server: TestServer) {
  const account = await server.newAccount();
  const deploymentId = await builtDeployment(account, server, policiesModelFiles());
  const sales = await server.services.groups.create(account.id, { name: 'sales' });
  await server.services.groups.addMembers(account.id, sales.id, [account.member.id]);
  const meta = (body: unknown, as: TestAccount['admin'] = account.member) =>
    account.request({ method: 'POST', url: '/api/v1/meta', as, body });
  return { account, deploymentId, meta };
}

describeOnStores('metadata', (server) => {
  it("a member_level policy hides members from a user; a user outside the cube's groups does not see it", async () => {
    const { account, deploymentId, meta } = await setup(server());
    const response = await meta({ selectors: ['*'], deploymentId });
    expect(response.status, response.text).toBe(200);
    expect(response.body.deploymentId).toBe(deploymentId);
    const customers = (response.body.cubes as Entry[]).find((c) => c.name === 'customers')!;
    expect(names(customers.dimensions).sort()).toEqual(['customers.country', 'customers.id', 'customers.name']);
    expect(names(customers.measures)).toEqual(['customers.count']);

    const hidden = await meta({ selectors: ['customers.email'], deploymentId });
    expect([hidden.status, hidden.body.error]).toEqual([400, 'selectors: "customers.email" is not a member you may see']);

    // The admin is in no group: the policies open customers to groups and signed contexts only.
    const outsider = await meta({ selectors: ['*'], deploymentId }, account.admin);
    expect(names(outsider.body.cubes)).not.toContain('customers');
    const asked = await meta({ selectors: ['customers'], deploymentId }, account.admin);
    expect([asked.status, asked.body.error]).toEqual([400, 'selectors: "customers" is not a cube or view you may see']);
  });

  it('selectors narrow to cubes and members; a whole cube wins over its members', async () => {
    const { deploymentId, meta } = await setup(server());
    const orders = await meta({ selectors: ['orders'], deploymentId });
    expect(names(orders.body.cubes)).toEqual(['orders']);
    expect(names(orders.body.cubes[0].dimensions)).toEqual(['orders.id', 'orders.status', 'orders.customer_id']);

    const members = await meta({ selectors: ['orders.status', 'orders.count', 'customers.name'], deploymentId });
    expect(names(members.body.cubes)).toEqual(['customers', 'orders']);
    expect(names(members.body.cubes[0].dimensions)).toEqual(['customers.name']);
    expect(members.body.cubes[0].measures).toEqual([]);
    expect(members.body.cubes[1]).toMatchObject({ dimensions: [{ name: 'orders.status' }], measures: [{ name: 'orders.count' }] });

    const both = await meta({ selectors: ['orders.status', 'orders'], deploymentId });
    expect(names(both.body.cubes[0].dimensions)).toHaveLength(3);
  });

  it("without deploymentId, the caller's only deployment; with several, a 400 naming the field", async () => {
    const { account, deploymentId, meta } = await setup(server());
    const response = await meta({ selectors: ['orders.count'] });
    expect(response.status, response.text).toBe(200);
    expect(response.body.deploymentId).toBe(deploymentId);
    const later = (await server().services.deployments.create(account.id, { name: 'later' }, 'http://localhost')).id;
    const ambiguous = await meta({ selectors: ['orders.count'] });
    expect([ambiguous.status, ambiguous.body.error]).toEqual([
      400,
      `deploymentId is required: you may read more than one deployment (${deploymentId}, ${later})`,
    ]);
    expect((await meta({ selectors: ['orders.count'], deploymentId })).status).toBe(200);
  });

  it.each([
    [{ selectors: 'orders' }, 400, /selectors/],
    [{ selectors: [1] }, 400, /selectors/],
    [{ selectors: [] }, 400, /selectors/],
    [{}, 400, /required property "selectors"/],
    [{ selectors: ['*'], extra: true }, 400, /unknown property "extra"/],
    [{ selectors: ['nope'] }, 400, /"nope" is not a cube or view you may see/],
    [{ selectors: ['orders.nope'] }, 400, /"orders.nope" is not a member you may see/],
  ])('%j → %i', async (body, status, message) => {
    const { deploymentId, meta } = await setup(server());
    const response = await meta({ deploymentId, ...body });
    expect(response.status, response.text).toBe(status);
    expect(response.body.error).toMatch(message);
  });

  it('a deployment without a build is 400; an account without deployments is 404', async () => {
    const account = await server().newAccount();
    const meta = (body: unknown) => account.request({ method: 'POST', url: '/api/v1/meta', as: account.member, body });
    const none = await meta({ selectors: ['*'] });
    expect(none.status).toBe(404);
    const deploymentId = (await server().services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
    const unbuilt = await meta({ selectors: ['*'], deploymentId });
    expect([unbuilt.status, unbuilt.body.error]).toEqual([400, 'No successful build of branch main yet']);
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
