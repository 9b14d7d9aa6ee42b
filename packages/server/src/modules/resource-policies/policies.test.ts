import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { openTestStoreAgain } from '../../test-support/stores.js';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

const POLICIES = '/api/v1/resource-policies';

async function setup(server: TestServer) {
  const account = await server.newAccount();
  const d = (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  const other = (await server.services.deployments.create(account.id, { name: 'o' }, 'http://localhost')).id;
  const token = `Bearer ${await account.accessToken(account.member)}`;
  /** A shared branch needs SchemaUpdate: the member's role does not grant it, a policy may. */
  const branch = (deploymentId: number, as = token) =>
    account.request({
      method: 'POST',
      url: `/build/api/v1/deployments/${deploymentId}/branches`,
      as,
      body: { name: `b${Math.random()}`.replace('.', '') },
    });
  const put = (subject: 'user' | 'group', body: Record<string, unknown>) =>
    account.request({ method: 'PUT', url: `${POLICIES}/${subject}`, as: account.admin, body });
  const get = (resourceType: string, resourceId: number) =>
    account.request({ method: 'GET', url: `${POLICIES}?resourceType=${resourceType}&resourceId=${resourceId}`, as: account.admin });
  return { account, d, other, token, branch, put, get };
}

describeOnStores('resource policies', (server) => {
  describe('semantics', () => {
    it('one action per user and resource: PUT replaces it, null removes it; a deployment inherits Global', async () => {
      const { account, d, put, get } = await setup(server());
      const user = { resourceType: 'Deployment', resourceId: d, userId: account.member.id };
      expect((await put('user', { ...user, action: 'SchemaRead' })).status).toBe(200);
      const replaced = await put('user', { ...user, action: 'SchemaUpdate' });
      expect(replaced.body).toEqual({ ...user, groupId: null, action: 'SchemaUpdate' });
      const group = await server().services.groups.create(account.id, { name: 'analysts' });
      expect((await put('group', { resourceType: 'Global', resourceId: 0, groupId: group.id, action: 'DeploymentRead' })).status).toBe(200);
      const listed = await get('Deployment', d);
      expect(listed.body).toEqual({
        userPolicies: [{ userId: account.member.id, action: 'SchemaUpdate' }],
        groupPolicies: [],
        inheritedUserPolicies: [],
        inheritedGroupPolicies: [{ groupId: group.id, action: 'DeploymentRead', sourceFolder: null }],
      });
      expect((await get('Global', 0)).body.groupPolicies).toEqual([{ groupId: group.id, action: 'DeploymentRead' }]);
      const removed = await put('user', { ...user, action: null });
      expect(removed.body.action).toBeNull();
      expect((await get('Deployment', d)).body.userPolicies).toEqual([]);
    });

    it.each([
      [{ resourceType: 'Agent', resourceId: 1, action: 'AgentRead' }, 400, /resourceType Agent is not served yet/],
      [{ resourceType: 'Global', resourceId: 7, action: 'All' }, 400, /Global takes resourceId 0/],
      [{ resourceType: 'Deployment', resourceId: 1, action: 'Teleport' }, 400, /action/],
      [{ resourceType: 'Deployment', resourceId: 1 }, 400, /action is missing/],
      [{ resourceType: 'Deployment', resourceId: 1, action: 'All', extra: 1 }, 400, /unknown property "extra"/],
      [{ resourceType: 'Deployment', resourceId: 2147483000, action: 'All' }, 404, /Deployment 2147483000 not found/],
    ])('%j → %i', async (body, status, message) => {
      const { account, d, put } = await setup(server());
      const resourceId = body.resourceId === 1 ? d : body.resourceId;
      const response = await put('user', { ...body, resourceId, userId: account.member.id });
      expect(response.status, response.text).toBe(status);
      expect(response.body.error).toMatch(message);
    });

    it('a user or group of another account is 404; a missing userId is 400', async () => {
      const { d, put } = await setup(server());
      const stranger = await server().newAccount();
      const group = await server().services.groups.create(stranger.id, { name: 'theirs' });
      expect((await put('user', { resourceType: 'Deployment', resourceId: d, userId: stranger.member.id, action: 'All' })).status).toBe(
        404,
      );
      expect((await put('group', { resourceType: 'Deployment', resourceId: d, groupId: group.id, action: 'All' })).status).toBe(404);
      const missing = await put('user', { resourceType: 'Deployment', resourceId: d, action: 'All' });
      expect([missing.status, missing.body.error]).toEqual([400, 'userId is missing: name the user the policy is for']);
    });
  });

  describe('what they grant an access token', () => {
    it('a user policy on a deployment grants its action (and what it implies) there only, at once, and is taken back at once', async () => {
      const { account, d, other, branch, put } = await setup(server());
      expect((await branch(d)).status).toBe(403);
      expect(
        (await put('user', { resourceType: 'Deployment', resourceId: d, userId: account.member.id, action: 'SchemaUpdate' })).status,
      ).toBe(200);
      expect((await branch(d)).status).toBe(201);
      const elsewhere = await branch(other);
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.body.error).toBe(`This operation requires the admin role or the SchemaUpdate permission on deployment ${other}`);
      // The member's API key (a key of a role) is not widened by its user's policies.
      expect((await branch(d, `Api-Key ${account.member.apiKey}`)).status).toBe(403);
      expect((await put('user', { resourceType: 'Deployment', resourceId: d, userId: account.member.id, action: null })).status).toBe(200);
      expect((await branch(d)).status).toBe(403);
    });

    it('a group policy on Global grants every deployment, and leaving the group takes it away at once', async () => {
      const { account, d, other, token, branch, put } = await setup(server());
      const group = await server().services.groups.create(account.id, { name: 'modellers' });
      await server().services.groups.addMembers(account.id, group.id, [account.member.id]);
      expect((await put('group', { resourceType: 'Global', resourceId: 0, groupId: group.id, action: 'All' })).status).toBe(200);
      expect((await branch(d)).status).toBe(201);
      expect((await branch(other)).status).toBe(201);
      // All is every action of the reference's policies, never the account's own administration.
      const escalate = await account.request({
        method: 'PUT',
        url: `${POLICIES}/user`,
        as: token,
        body: { resourceType: 'Global', resourceId: 0, userId: account.member.id, action: 'All' },
      });
      expect(escalate.status).toBe(403);
      expect((await account.request({ method: 'GET', url: '/api/v1/api-keys', as: token })).status).toBe(403);
      const left = await account.request({
        method: 'DELETE',
        url: `/api/v1/user-groups/${group.id}/members/${account.member.id}`,
        as: account.admin,
      });
      expect(left.status, left.text).toBe(204);
      expect((await branch(d)).status).toBe(403);
    });

    it('a policy written by another server on the same store reaches this one through NOTIFY', async () => {
      const { account, d, branch } = await setup(server());
      expect((await branch(d)).status).toBe(403);
      await behindOurBack(
        server(),
        sql`insert into resource_policy (account_id, user_id, resource_type, resource_id, action)
            values (${account.id}, ${account.member.id}, 'Deployment', ${d}, 'SchemaUpdate')`,
      );
      await vi.waitFor(async () => expect((await branch(d)).status).toBe(201), { timeout: 3_000, interval: 50 });
      await behindOurBack(server(), sql`delete from group_member where user_id = ${account.member.id}`);
      await behindOurBack(server(), sql`delete from resource_policy where user_id = ${account.member.id}`);
      await vi.waitFor(async () => expect((await branch(d)).status).toBe(403), { timeout: 3_000, interval: 50 });
    });
  });

  describe('shared authorisation suite', () => {
    authorizationSuite(server, cases);
  });
});

/** A write this server's write watch does not see: raw SQL here (PGlite) or on another connection (PostgreSQL). */
async function behindOurBack(server: TestServer, statement: ReturnType<typeof sql>): Promise<void> {
  const { store } = server;
  if (store.kind === 'pglite') {
    await statement.execute(store.db);
    return;
  }
  const other = await openTestStoreAgain(store, 1);
  await statement.execute(other.db);
  await other.close();
}
