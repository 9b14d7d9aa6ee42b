import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { chartWidget, creatorToken, deploymentOf, embedToken, publishedDashboard, storedFolder, textWidget } from './test-fixtures.js';

type As = Parameters<TestAccount['request']>[0]['as'];

/**
 * Creator mode (issue 29, spec 2.4 and 2.9): embed sessions minted with `creatorMode: true` build
 * their embed tenant's workbooks, reports and dashboards through the workspace's own operations,
 * and what they make is their tenant's alone. The shared authorisation suite checks each
 * operation's credentials (read-only 403, another tenant 404, another deployment 403); these tests
 * follow what a creator-mode page does, end to end, and who sees the result.
 */
describeOnStores('creator mode: an embed tenant builds and publishes its own dashboards', (server) => {
  const api = (account: TestAccount, deploymentId: number) => {
    const base = `/api/v1/deployments/${deploymentId}`;
    return async (as: As, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
      account.request({ method, url: url.startsWith('/api/') ? url : `${base}${url}`, as, body });
  };
  const ok = <T extends { status: number; text: string }>(response: T): T => {
    expect(response.status, response.text).toBe(200);
    return response;
  };
  const names = (body: { items?: Array<{ name: string }>; data?: Array<{ name: string }> }) =>
    (body.items ?? body.data ?? []).map((item) => item.name).sort();

  /** A tenant's creator builds a workbook with a report, puts its chart on the dashboard and publishes it. */
  async function built(s: TestServer) {
    const account = await s.newAccount();
    const deploymentId = await deploymentOf(s, account);
    const call = api(account, deploymentId);
    const ann = await creatorToken(s, account, deploymentId, 'acme-corp', 'ann');
    const workbook = ok(await call(ann, 'POST', '/workbooks', { name: 'Acme revenue' })).body;
    const report = ok(
      await call(ann, 'POST', '/reports', {
        name: 'Revenue by month',
        workbookId: workbook.id,
        jsonQuery: JSON.stringify({
          measures: ['orders.count'],
          timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
        }),
        meta: { chartType: 'line' },
      }),
    ).body;
    const draft = { title: 'Acme board', widgets: [chartWidget('c1', report.id), textWidget('t1')] };
    ok(await call(ann, 'PUT', `/workbooks/${workbook.id}/dashboard`, { dashboardDraft: draft }));
    const dashboard = ok(await call(ann, 'POST', `/workbooks/${workbook.id}/publish`, { workbookId: workbook.id })).body;
    return { account, deploymentId, call, ann, workbook, report, dashboard };
  }

  it('a creator builds a report and a dashboard, publishes it, and a read-only session of its tenant opens it', async () => {
    const { account, deploymentId, ann, workbook, report, dashboard } = await built(server());
    expect(workbook).toMatchObject({ deploymentId, folderId: null, createdBy: null });
    expect(report).toMatchObject({ workbookId: workbook.id, meta: { chartType: 'line' }, createdBy: null });
    // A tenant's dashboard is embeddable from its first publish: its tenant's pages open it.
    expect(dashboard).toMatchObject({ status: 'published', versionNumber: 1, allowEmbed: true, workbookId: workbook.id });

    const bob = await embedToken(account, { deploymentId, externalId: 'bob', embedTenantName: 'acme-corp' });
    const opened = ok(await account.request({ method: 'GET', url: `/api/v1/embed/dashboard/${dashboard.publicId}`, as: bob }));
    expect(opened.body.config.widgets.map((w: { id: string }) => w.id)).toEqual(['c1', 't1']);
    expect(opened.body.reportSnapshots).toMatchObject([
      { reportId: report.id, name: 'Revenue by month', spec: { measures: ['orders.count'] } },
    ]);
    ok(await account.request({ method: 'GET', url: `/api/v1/embed/dashboard/${dashboard.publicId}`, as: ann }));
  });

  it("every creator-mode session of the tenant works on the tenant's workbooks; the tenant's read-only sessions cannot", async () => {
    const { account, deploymentId, call, workbook } = await built(server());
    const carl = await creatorToken(server(), account, deploymentId, 'acme-corp', 'carl');
    expect(names(ok(await call(carl, 'GET', '/workbooks')).body)).toEqual(['Acme revenue']);
    expect(ok(await call(carl, 'PUT', `/workbooks/${workbook.id}`, { name: 'Acme revenue 2025' })).body.name).toBe('Acme revenue 2025');
    const copy = ok(await call(carl, 'POST', `/workbooks/${workbook.id}/duplicate`)).body;
    expect(copy).toMatchObject({ name: 'Acme revenue 2025 (copy)', publishedDashboard: null });
    // The copy's reports and draft come along, and stay the tenant's.
    const copied = ok(await call(carl, 'GET', `/reports?workbookId=${copy.id}`)).body.data;
    expect(copied.map((r: { name: string }) => r.name)).toEqual(['Revenue by month']);
    expect(copy.dashboardDraft.widgets[0].config.reportId).toBe(copied[0].id);
    expect(names(ok(await call(carl, 'GET', '/workbooks')).body)).toEqual(['Acme revenue 2025', 'Acme revenue 2025 (copy)']);

    const bob = await embedToken(account, { deploymentId, externalId: 'bob', embedTenantName: 'acme-corp' });
    const refused = await call(bob, 'GET', '/workbooks');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(`This credential does not grant DeploymentRead on deployment ${deploymentId}`);
    ok(await call(carl, 'DELETE', `/workbooks/${copy.id}`));
    expect(names(ok(await call(carl, 'GET', '/workbooks')).body)).toEqual(['Acme revenue 2025']);
  });

  it("another tenant's sessions get 404 for everything of the tenant, and list none of it", async () => {
    const { account, deploymentId, call, workbook, report, dashboard } = await built(server());
    const dave = await creatorToken(server(), account, deploymentId, 'umbrella-co', 'dave');
    const erin = await embedToken(account, { deploymentId, externalId: 'erin', embedTenantName: 'umbrella-co' });
    ok(await call(dave, 'POST', '/workbooks', { name: 'Umbrella board' }));
    expect(names(ok(await call(dave, 'GET', '/workbooks')).body)).toEqual(['Umbrella board']);
    expect(ok(await call(dave, 'GET', '/reports')).body.data).toEqual([]);
    for (const [method, url, body] of [
      ['GET', `/workbooks/${workbook.id}`],
      ['PUT', `/workbooks/${workbook.id}`, { name: 'Mine now' }],
      ['POST', `/workbooks/${workbook.id}/duplicate`],
      ['DELETE', `/workbooks/${workbook.id}`],
      ['GET', `/reports/${report.id}`],
      ['POST', '/reports', { name: 'Into theirs', workbookId: workbook.id }],
      ['PUT', `/dashboards/${dashboard.publicId}/embed-access`, { allowEmbed: false }],
      ['GET', `/api/v1/embed/dashboard/${dashboard.publicId}`],
    ] as const) {
      expect((await call(dave, method, url, body)).status, `${method} ${url}`).toBe(404);
    }
    expect((await call(erin, 'GET', `/api/v1/embed/dashboard/${dashboard.publicId}`)).status).toBe(404);
  });

  it("the account's users, admins included, neither list nor open a tenant's content, nor share, move or put into it", async () => {
    const { account, deploymentId, call, workbook, report, dashboard } = await built(server());
    ok(await call(account.admin, 'POST', '/workbooks', { name: 'Account board' }));
    ok(await call(account.admin, 'POST', '/reports', { name: 'Account report' }));
    for (const as of [account.admin, `Bearer ${await account.accessToken(account.admin)}`]) {
      expect(names(ok(await call(as, 'GET', '/workbooks')).body)).toEqual(['Account board']);
      expect(names(ok(await call(as, 'GET', '/reports')).body)).toEqual(['Account report']);
      const workspace = ok(await call(as, 'GET', '/workspace')).body;
      expect(JSON.stringify(workspace)).toContain('Account board');
      expect(JSON.stringify(workspace)).not.toMatch(/Acme revenue|Revenue by month/);
      for (const url of [`/workbooks/${workbook.id}`, `/reports/${report.id}`, `/api/v1/embed/dashboard/${dashboard.publicId}`]) {
        expect((await call(as, 'GET', url)).status, url).toBe(404);
      }
    }
    const admin = account.admin;
    const folder = await storedFolder(server(), account, deploymentId, admin.id);
    for (const [method, url, body] of [
      ['PUT', `/workbooks/${workbook.id}/dashboard`, { dashboardDraft: null }],
      ['POST', `/workbooks/${workbook.id}/publish`, { workbookId: workbook.id }],
      ['PUT', `/dashboards/${dashboard.publicId}/embed-access`, { allowEmbed: false }],
      ['PUT', `/reports/${report.id}/refresh`],
      ['POST', '/reports', { name: 'Into theirs', workbookId: workbook.id }],
      ['POST', '/workspace/move', { type: 'WORKBOOK', id: workbook.id, folderId: folder.id }],
      [
        'PUT',
        '/api/v1/resource-policies/user',
        { resourceType: 'Workbook', resourceId: workbook.id, userId: admin.id, action: 'WorkbookRead' },
      ],
    ] as const) {
      expect((await call(admin, method, url, body)).status, `${method} ${url}`).toBe(404);
    }
  });

  it("a creator stays within its tenant: not into the account's folders or workbooks, not another deployment", async () => {
    const { account, deploymentId, call, ann, report } = await built(server());
    const folder = await storedFolder(server(), account, deploymentId, account.admin.id);
    const theirs = ok(await call(account.admin, 'POST', '/workbooks', { name: 'Account board' })).body;
    expect((await call(ann, 'POST', '/workbooks', { name: 'In a folder', folderId: folder.id })).status).toBe(404);
    expect((await call(ann, 'POST', '/reports', { name: 'Into the account', workbookId: theirs.id })).status).toBe(404);
    expect((await call(ann, 'GET', `/workbooks/${theirs.id}`)).status).toBe(404);
    // Refreshing keeps one caller's rows for every reader: embed sessions query live instead.
    const refresh = await call(ann, 'PUT', `/reports/${report.id}/refresh`);
    expect(refresh.status).toBe(401);
    expect(refresh.body.error).toMatch(/not accepted here/);

    const elsewhere = await deploymentOf(server(), account);
    const refused = await api(account, elsewhere)(ann, 'POST', '/workbooks', { name: 'Elsewhere' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(`This token is not allowed to access deployment ${elsewhere}`);
  });

  it("a creator still opens the account's embeddable dashboards, as read-only sessions do, but cannot change them", async () => {
    const { account, deploymentId, ann } = await built(server());
    const { workbook, dashboard } = await publishedDashboard(server(), account, deploymentId);
    const open = () => account.request({ method: 'GET', url: `/api/v1/embed/dashboard/${dashboard.publicId}`, as: ann });
    expect((await open()).status).toBe(404);
    ok(await api(account, deploymentId)(account.admin, 'PUT', `/dashboards/${dashboard.publicId}/embed-access`, { allowEmbed: true }));
    ok(await open());
    expect((await api(account, deploymentId)(ann, 'POST', `/workbooks/${workbook.id}/publish`, { workbookId: workbook.id })).status).toBe(
      404,
    );
  });

  it("a tenant's creators may archive or stop embedding its dashboard: its read-only sessions then get 404, its creators still open it", async () => {
    const { account, deploymentId, call, ann, workbook, dashboard } = await built(server());
    const bob = await embedToken(account, { deploymentId, externalId: 'bob', embedTenantName: 'acme-corp' });
    const open = (as: string) => account.request({ method: 'GET', url: `/api/v1/embed/dashboard/${dashboard.publicId}`, as });
    expect(ok(await call(ann, 'PUT', `/dashboards/${dashboard.publicId}/embed-access`, { allowEmbed: false })).body.allowEmbed).toBe(false);
    expect((await open(bob)).status).toBe(404);
    expect(ok(await open(ann)).body.allowEmbed).toBe(false);
    ok(await call(ann, 'PUT', `/dashboards/${dashboard.publicId}/embed-access`, { allowEmbed: true }));
    ok(await call(ann, 'POST', `/workbooks/${workbook.id}/publish`, { workbookId: workbook.id, status: 'archived' }));
    expect((await open(bob)).status).toBe(404);
    expect(ok(await open(ann)).body.status).toBe('archived');
    const again = ok(await call(ann, 'POST', `/workbooks/${workbook.id}/publish`, { workbookId: workbook.id })).body;
    expect(again).toMatchObject({ status: 'published', versionNumber: 2, publicId: dashboard.publicId });
    ok(await open(bob));
  });

  it("deleting an embed tenant deletes its workbooks, reports and dashboards, and nothing of the account's", async () => {
    const { account, call, workbook, report, dashboard } = await built(server());
    const mine = ok(await call(account.admin, 'POST', '/workbooks', { name: 'Account board' })).body;
    const db = server().store.db;
    await db.deleteFrom('embed_tenant').where('account_id', '=', account.id).where('name', '=', 'acme-corp').execute();
    expect(await db.selectFrom('workbook').select('id').where('id', 'in', [workbook.id, mine.id]).execute()).toEqual([{ id: mine.id }]);
    expect(await db.selectFrom('report').select('id').where('id', '=', report.id).execute()).toEqual([]);
    expect(await db.selectFrom('dashboard').select('id').where('public_id', '=', dashboard.publicId).execute()).toEqual([]);
    expect(names(ok(await call(account.admin, 'GET', '/workbooks')).body)).toEqual(['Account board']);
  });
});
