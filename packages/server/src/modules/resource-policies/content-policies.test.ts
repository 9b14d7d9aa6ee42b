import { describe, expect, it } from 'vitest';
import { permissionCatalog, POLICY_ACTIONS } from '../../http/permissions.js';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { contentCases } from './authorization.cases.js';
import { contentIn } from './content.fixtures.js';

const POLICIES = '/api/v1/resource-policies';

/** The reference's action enum (InheritedUserPolicyDtoAction of api.yaml), in its order. */
const REFERENCE_ENUM =
  'All DeploymentsManage DeploymentCreate DeploymentRead DeploymentUpdate DeploymentDelete PlaygroundRead SchemaRead SchemaUpdate ' +
  'SchemaUpdateDevBranches APMRead PreAggregationBuild AlertsCreate AlertsRead AlertsUpdate AlertsDelete AuditLogManage BillingRead ' +
  'SqlRunnerRead DataAssetsRead DataAssetsManage CubeNetworkConnect ReportRead ReportEdit ReportManage WorkbookManage WorkbookRead ' +
  'WorkbookEdit ChatThreadRead AgentManage AgentRead AgentSpaceManage AgentAdmin DeploymentAgentRead OAuthIntegrationsManage ' +
  'OAuthIntegrationsIssueTokens AIBIDevelop AIBIExplore AIBIView ChartPalettesManage DashboardThemesManage AIBIDeveloper AIBIUser ' +
  'AIBIViewer EmbedDeploymentRead EmbedDashboardRead FolderRead FolderEdit FolderManage';

/** grand › parent › report and workbook (with its dashboard), all the member's, grand the admin's. */
async function setup(server: TestServer) {
  const account = await server.newAccount();
  const d = (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  const content = contentIn(server, account.id, d);
  const grand = await content.folder(account.admin.id);
  const parent = await content.folder(account.member.id, grand);
  const report = await content.report(account.member.id, parent);
  const workbook = await content.workbook(account.member.id, parent);
  const dashboard = await content.dashboard(workbook, account.member.id);
  const other = await account.addUser('member');
  const put = (subject: 'user' | 'group', body: Record<string, unknown>, as: Parameters<typeof account.request>[0]['as'] = account.admin) =>
    account.request({ method: 'PUT', url: `${POLICIES}/${subject}`, as, body });
  const get = (resourceType: string, resourceId: number, as: Parameters<typeof account.request>[0]['as'] = account.admin) =>
    account.request({ method: 'GET', url: `${POLICIES}?resourceType=${resourceType}&resourceId=${resourceId}`, as });
  return { account, d, content, grand, parent, report, workbook, dashboard, other, put, get };
}

describeOnStores('resource policies on workspace content', (server) => {
  it('getPolicies reports own policies and those inherited from each folder above, the deployment and Global', async () => {
    const { account, d, grand, parent, report, dashboard, workbook, other, put, get } = await setup(server());
    const group = await server().services.groups.create(account.id, { name: 'readers' });
    const set = async (subject: 'user' | 'group', body: Record<string, unknown>) => expect((await put(subject, body)).status).toBe(200);
    await set('user', { resourceType: 'Report', resourceId: report, userId: other.id, action: 'ReportEdit' });
    await set('group', { resourceType: 'Folder', resourceId: grand, groupId: group.id, action: 'FolderRead' });
    await set('user', { resourceType: 'Folder', resourceId: parent, userId: other.id, action: 'ReportRead' });
    await set('group', { resourceType: 'Deployment', resourceId: d, groupId: group.id, action: 'DeploymentRead' });
    await set('user', { resourceType: 'Global', resourceId: 0, userId: other.id, action: 'SchemaRead' });
    await set('group', { resourceType: 'Workbook', resourceId: workbook, groupId: group.id, action: 'WorkbookEdit' });

    const listed = await get('Report', report);
    expect(listed.status, listed.text).toBe(200);
    const parentRow = await server().store.db.selectFrom('folder').selectAll().where('id', '=', parent).executeTakeFirstOrThrow();
    const folderShape = (id: number) =>
      expect.objectContaining({
        id,
        type: 'FOLDER',
        deploymentId: d,
        position: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    expect(listed.body).toEqual({
      userPolicies: [{ userId: other.id, action: 'ReportEdit' }],
      groupPolicies: [],
      inheritedUserPolicies: [
        {
          userId: other.id,
          action: 'ReportRead',
          sourceFolder: {
            id: parent,
            name: parentRow.name,
            parentId: grand,
            position: 0,
            type: 'FOLDER',
            deploymentId: d,
            createdBy: account.member.id,
            updatedBy: account.member.id,
            createdAt: new Date(parentRow.created_at).toISOString(),
            updatedAt: new Date(parentRow.updated_at).toISOString(),
          },
        },
        { userId: other.id, action: 'SchemaRead', sourceFolder: null },
      ],
      inheritedGroupPolicies: [
        { groupId: group.id, action: 'FolderRead', sourceFolder: folderShape(grand) },
        { groupId: group.id, action: 'DeploymentRead', sourceFolder: null },
      ],
    });
    // A folder inherits from the folders above it, not from itself; a dashboard from its workbook.
    const folder = (await get('Folder', parent)).body;
    expect(folder.userPolicies).toEqual([{ userId: other.id, action: 'ReportRead' }]);
    expect(folder.inheritedGroupPolicies[0]).toEqual({ groupId: group.id, action: 'FolderRead', sourceFolder: folderShape(grand) });
    const board = (await get('Dashboard', dashboard)).body;
    expect(board.inheritedGroupPolicies[0]).toEqual({
      groupId: group.id,
      action: 'WorkbookEdit',
      sourceFolder: expect.objectContaining({ id: workbook, type: 'WORKBOOK', parentId: parent }),
    });
  });

  it("the creator changes its item's policies; others need Manage on it; nobody grants beyond what they hold", async () => {
    const { account, report, other, put, get } = await setup(server());
    const member = account.member;
    const grant = (action: string | null, as: Parameters<typeof put>[2] = member, userId = other.id) =>
      put('user', { resourceType: 'Report', resourceId: report, userId, action }, as);
    expect((await grant('ReportEdit')).status).toBe(200);
    // `other` may now edit, not manage: it reads the policies, cannot change them.
    expect((await get('Report', report, other)).status).toBe(200);
    const third = await account.addUser('member');
    const refused = await grant('ReportRead', other, third.id);
    expect([refused.status, refused.body.error]).toEqual([
      403,
      `This credential does not grant ReportManage on report ${report} (nor PoliciesManage), so it cannot change its policies`,
    ]);
    // A stranger to the item learns nothing of it: 404 for reading and changing its policies.
    expect((await get('Report', report, third)).status).toBe(404);
    expect((await grant('ReportRead', third, third.id)).status).toBe(404);
    // Manage through a folder policy lets `other` share, but never more than it holds.
    expect((await grant('ReportManage')).status).toBe(200);
    expect((await grant('ReportRead', other, third.id)).status).toBe(200);
    expect((await get('Report', report, third)).status).toBe(200);
    expect((await grant(null)).status).toBe(200);
    expect((await get('Report', report, other)).status).toBe(404);
  });

  it('Manage through a folder policy lets a member share within it; Edit does not', async () => {
    const { account, parent, other, put } = await setup(server());
    expect(
      (await put('user', { resourceType: 'Folder', resourceId: parent, userId: other.id, action: 'FolderManage' }, account.member)).status,
    ).toBe(200);
    const stranger = await account.addUser('member');
    // `other` holds FolderManage (so ReportManage) on parent; the grandparent is the admin's alone.
    const ok = await put('user', { resourceType: 'Folder', resourceId: parent, userId: stranger.id, action: 'ReportEdit' }, other);
    expect(ok.status, ok.text).toBe(200);
    await server().store.db.updateTable('resource_policy').set({ action: 'FolderEdit' }).where('user_id', '=', other.id).execute();
    const wider = await put('user', { resourceType: 'Folder', resourceId: parent, userId: stranger.id, action: 'FolderManage' }, other);
    expect(wider.status).toBe(403);
  });

  it.each([
    ['Report', 'DeploymentRead', /action DeploymentRead does not apply to a Report; a Report takes ReportRead, ReportEdit, ReportManage/],
    ['Report', 'FolderRead', /does not apply to a Report/],
    ['Workbook', 'ReportRead', /does not apply to a Workbook/],
    ['Dashboard', 'FolderEdit', /does not apply to a Dashboard; a Dashboard takes WorkbookRead/],
    ['Folder', 'All', /does not apply to a Folder/],
    [
      'Agent',
      'AgentRead',
      /resourceType Agent is not served yet; resource policies are on Global, Deployment, Folder, Report, Workbook and Dashboard/,
    ],
    ['ChatThread', 'ChatThreadRead', /resourceType ChatThread is not served yet/],
  ])('%s with %s → 400', async (resourceType, action, message) => {
    const { report, other, put } = await setup(server());
    const response = await put('user', { resourceType, resourceId: report, userId: other.id, action });
    expect(response.status, response.text).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it('fitting actions per type are accepted: ReportRead and WorkbookEdit on a folder, WorkbookEdit on a dashboard', async () => {
    const { parent, dashboard, other, put } = await setup(server());
    for (const [resourceType, resourceId, action] of [
      ['Folder', parent, 'ReportRead'],
      ['Folder', parent, 'WorkbookEdit'],
      ['Dashboard', dashboard, 'WorkbookEdit'],
    ] as const) {
      const response = await put('user', { resourceType, resourceId, userId: other.id, action });
      expect(response.body, response.text).toEqual({ resourceType, resourceId, userId: other.id, groupId: null, action });
    }
  });

  it("another account's item, a missing one and an item of another deployment out of a key's reach are 404", async () => {
    const { account, report, other, put, get } = await setup(server());
    const stranger = await setup(server());
    expect((await get('Report', stranger.report)).status).toBe(404);
    expect(
      (await put('user', { resourceType: 'Report', resourceId: stranger.report, userId: other.id, action: 'ReportRead' })).status,
    ).toBe(404);
    expect((await get('Folder', 2_000_000_000)).body.error).toBe('Folder 2000000000 not found');
    const elsewhere = await server().services.deployments.create(account.id, { name: 'e' }, 'http://localhost');
    const key = await server().services.credentials.createApiKey(account.id, account.member.id, {
      name: 'scoped',
      role: 'member',
      deploymentIds: [elsewhere.id],
    });
    const scoped = `Api-Key ${key.key}`;
    expect((await get('Report', report, scoped)).status).toBe(404);
    expect((await put('user', { resourceType: 'Report', resourceId: report, userId: other.id, action: 'ReportRead' }, scoped)).status).toBe(
      404,
    );
  });

  it('Global and Deployment still need PoliciesManage: a member is refused, naming it', async () => {
    const { account, d, other, put } = await setup(server());
    const response = await put(
      'user',
      { resourceType: 'Deployment', resourceId: d, userId: other.id, action: 'SchemaRead' },
      account.member,
    );
    expect([response.status, response.body.error]).toEqual([403, 'This operation requires the admin role']);
    const agent = await put('user', { resourceType: 'AgentSpace', resourceId: 1, userId: other.id, action: 'AgentRead' }, account.member);
    expect([agent.status, agent.body.error]).toEqual([
      400,
      'resourceType AgentSpace is not served yet; resource policies are on Global, Deployment, Folder, Report, Workbook and Dashboard resources',
    ]);
    // PoliciesManage reaches the whole account: an admin's key limited to deployments is refused too.
    const key = await server().services.credentials.createApiKey(account.id, account.admin.id, {
      name: 's',
      role: 'admin',
      deploymentIds: [d],
    });
    const group = await server().services.groups.create(account.id, { name: 'g' });
    const refused = await put(
      'group',
      { resourceType: 'Deployment', resourceId: d, groupId: group.id, action: 'SchemaRead' },
      `Api-Key ${key.key}`,
    );
    expect([refused.status, refused.body.error]).toEqual([
      403,
      `This API key is limited to deployments ${d} and cannot change resource policies; use a key for every deployment`,
    ]);
  });

  it("every action of the reference's list: in the policy enum and the served spec, offered to keys, and granted by an admin", async () => {
    const reference = REFERENCE_ENUM.split(' ');
    expect([...POLICY_ACTIONS].sort()).toEqual([...reference].sort());
    for (const action of reference) expect(permissionCatalog().keys).toContain(action);
    const spec = await server().app.inject({ method: 'GET', url: '/api/v1/spec', headers: { host: 'anything' } });
    expect([...JSON.parse(spec.body).components.schemas.ResourcePolicyAction.enum].sort()).toEqual([...reference].sort());
    const { account, other, put } = await setup(server());
    for (const action of reference) {
      const response = await put('user', { resourceType: 'Global', resourceId: 0, userId: other.id, action });
      expect(response.status, `${action}: ${response.text}`).toBe(200);
    }
    const key = await account.request({
      method: 'POST',
      url: '/api/v1/api-keys',
      as: account.admin,
      body: {
        name: 'all of them',
        permissions: reference,
        deploymentIds: [(await server().services.deployments.create(account.id, { name: 'k' }, 'http://localhost')).id],
      },
    });
    expect(key.status, key.text).toBe(201);
  });

  describe('shared authorisation suite, on more content types', () => {
    authorizationSuite(server, contentCases);
  });
});
