import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { chartWidget, deploymentOf, storedReport, storedWorkbook, textWidget } from './test-fixtures.js';

describeOnStores('workbook dashboards', (server) => {
  const setup = async () => {
    const account = await server().newAccount();
    const deploymentId = await deploymentOf(server(), account);
    const workbook = await storedWorkbook(server(), account, deploymentId);
    const url = `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}`;
    const draft = (dashboardDraft: unknown) =>
      account.request({ method: 'PUT', url: `${url}/dashboard`, as: account.member, body: { dashboardDraft } });
    const publish = (body: Record<string, unknown> = {}) =>
      account.request({ method: 'POST', url: `${url}/publish`, as: account.member, body: { workbookId: workbook.id, ...body } });
    return { account, deploymentId, workbook, url, draft, publish };
  };

  it('saves a draft of every widget type with a layout, and clears it', async () => {
    const { account, workbook, url, draft } = await setup();
    const report = await storedReport(server(), workbook);
    const config = {
      title: 'Sales board',
      layout: { cols: { lg: 12, md: 8 }, breakpoints: { lg: 1200 }, rowHeight: 40, margin: [8, 8] },
      theme: { primaryColor: '#336699', widgets: { border: { radius: '4px' } } },
      settings: { refresh: 'hourly' },
      widgets: [
        chartWidget('chart', report.id),
        textWidget('text', 6),
        { id: 'filter', type: 'FILTER', position: { x: 0, y: 6, w: 3, h: 1 }, config: { member: 'orders.status' } },
        { id: 'grain', type: 'TIME_GRAIN', position: { x: 3, y: 6, w: 3, h: 1 } },
        { id: 'ai', type: 'AI', position: { x: 6, y: 6, w: 3, h: 1 }, responsiveLayouts: { md: { x: 0, y: 0, w: 8, h: 1 } } },
        {
          id: 'tabs',
          type: 'TABS_CONTAINER',
          position: { x: 0, y: 8, w: 12, h: 6 },
          config: { tabs: [{ title: 'One', widgetIds: ['text'] }] },
        },
      ],
    };
    const saved = await draft(config);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ dashboardDraft: config, dashboardPublished: null });
    const got = await account.request({ method: 'GET', url, as: account.member });
    expect(got.body.dashboardDraft).toEqual(config);
    expect((await draft(null)).body).toEqual({ dashboardDraft: null, dashboardPublished: null });
  });

  it.each([
    [{ widgets: [{ id: 'a', type: 'MAP', position: { x: 0, y: 0, w: 1, h: 1 } }] }, /type/],
    [{ widgets: [textWidget('a'), textWidget('a')] }, /dashboardDraft\.widgets\[1\] \(id "a"\): another widget has the same id/],
    [
      { widgets: [{ id: 'c', type: 'CHART', position: { x: 0, y: 0, w: 1, h: 1 } }] },
      /widgets\[0\] \(id "c"\): a CHART widget needs config\.reportId/,
    ],
    [{ widgets: [chartWidget('c', 999_999)] }, /widgets\[0\] \(id "c"\): report 999999 is not a report of this workbook/],
    [
      {
        widgets: [{ id: 't', type: 'TABS_CONTAINER', position: { x: 0, y: 0, w: 1, h: 1 }, config: { tabs: [{ widgetIds: ['ghost'] }] } }],
      },
      /widgets\[0\] \(id "t"\): config\.tabs\[0\] names widget "ghost", which is not on the dashboard/,
    ],
    [
      { widgets: [{ id: 't', type: 'TABS_CONTAINER', position: { x: 0, y: 0, w: 1, h: 1 }, config: { tabs: [{ widgetIds: ['t'] }] } }] },
      /contains the container itself/,
    ],
    [
      { layout: { cols: { lg: 4 } }, widgets: [{ ...textWidget('a'), responsiveLayouts: { lg: { x: 2, y: 0, w: 4, h: 1 } } }] },
      /widgets\[0\] \(id "a"\): responsiveLayouts\.lg reaches past the 4 columns/,
    ],
    [{ widgets: [{ ...textWidget('a'), position: { x: 0, y: 0, w: 0, h: 1 } }] }, /w/],
    [{ widgets: [{ ...textWidget('a'), colour: 'red' }] }, /colour/],
    [{ layout: { gutter: 3 }, widgets: [] }, /gutter/],
  ])('400 naming the bad widget: %j', async (config, message) => {
    const { draft } = await setup();
    const response = await draft(config);
    expect(response.status, response.text).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it("a CHART may not show another workbook's report", async () => {
    const { account, deploymentId, draft } = await setup();
    const elsewhere = await storedWorkbook(server(), account, deploymentId, { name: 'Other' });
    const report = await storedReport(server(), elsewhere);
    const response = await draft({ widgets: [chartWidget('c', report.id)] });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(`report ${report.id} is not a report of this workbook`);
  });

  it('publish freezes the draft into versions 1, 2, … under one stable publicId, with report snapshots', async () => {
    const { account, workbook, url, draft, publish } = await setup();
    const report = await storedReport(server(), workbook);
    const none = await publish();
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/no dashboard draft to publish/);

    await draft({ title: 'v1', widgets: [chartWidget('c', report.id)] });
    const first = await publish({ description: 'First' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      workbookId: workbook.id,
      status: 'published',
      allowEmbed: false,
      versionNumber: 1,
      title: 'v1',
      description: 'First',
      config: { title: 'v1' },
      createdBy: account.member.id,
      reportSnapshots: [{ reportId: report.id, versionNumber: 1, name: 'Revenue', spec: { measures: ['orders.count'] } }],
    });
    await server().store.db.updateTable('report').set({ name: 'Renamed' }).where('id', '=', report.id).execute();

    await draft({ title: 'v2', widgets: [textWidget('t')] });
    const second = await publish({ dashboardId: first.body.id });
    expect(second.body).toMatchObject({
      id: first.body.id,
      publicId: first.body.publicId,
      versionNumber: 2,
      config: { title: 'v2' },
      reportSnapshots: [],
    });
    expect(second.body.versionId).not.toBe(first.body.versionId);
    const versions = await server()
      .store.db.selectFrom('dashboard_version')
      .selectAll()
      .where('dashboard_id', '=', first.body.id)
      .orderBy('version_number')
      .execute();
    expect(versions.map((v) => v.version_number)).toEqual([1, 2]);

    // An explicit config is published as it is, the draft staying as it was.
    const third = await publish({ config: { title: 'v3', widgets: [] } });
    expect(third.body).toMatchObject({ publicId: first.body.publicId, versionNumber: 3, config: { title: 'v3' } });
    const got = await account.request({ method: 'GET', url, as: account.member });
    expect(got.body).toMatchObject({
      dashboardDraft: { title: 'v2' },
      dashboardPublished: { title: 'v3' },
      publishedDashboard: { versionNumber: 3 },
    });

    const wrongWorkbook = await publish({ workbookId: workbook.id + 1000 });
    expect(wrongWorkbook.status).toBe(400);
    expect(wrongWorkbook.body.error).toMatch(/workbookId/);
    const wrongDashboard = await publish({ dashboardId: first.body.id + 1000 });
    expect(wrongDashboard.status).toBe(400);
    expect(wrongDashboard.body.error).toMatch(/dashboardId/);
    const badConfig = await publish({ config: { widgets: [chartWidget('c', 999_999)] } });
    expect(badConfig.body.error).toMatch(/config\.widgets\[0\] \(id "c"\)/);
  });

  it('concurrent publishes of one workbook make one dashboard with versions 1..n, none lost', async () => {
    const { draft, publish } = await setup();
    await draft({ widgets: [textWidget('t')] });
    const results = await Promise.all(Array.from({ length: 5 }, () => publish()));
    for (const result of results) expect(result.status, result.text).toBe(200);
    expect(new Set(results.map((r) => r.body.publicId)).size).toBe(1);
    expect(results.map((r) => r.body.versionNumber).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('status archived archives the published dashboard without a new version; publishing again brings it back', async () => {
    const { draft, publish } = await setup();
    expect((await publish({ status: 'archived' })).body.error).toMatch(/no published dashboard to archive/);
    await draft({ widgets: [textWidget('t')] });
    const first = await publish();
    const archived = await publish({ status: 'archived' });
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body).toMatchObject({ publicId: first.body.publicId, status: 'archived', versionNumber: 1 });
    const again = await publish();
    expect(again.body).toMatchObject({ publicId: first.body.publicId, status: 'published', versionNumber: 2 });
  });

  it('publishing and editing the draft need WorkbookEdit: a reader gets 403, a stranger 404', async () => {
    const { account, workbook, url } = await setup();
    const reader = await account.addUser('member');
    const stranger = await account.addUser('member');
    await server()
      .store.db.insertInto('resource_policy')
      .values({ account_id: account.id, user_id: reader.id, resource_type: 'Workbook', resource_id: workbook.id, action: 'WorkbookRead' })
      .execute();
    for (const [as, status] of [
      [reader, 403],
      [stranger, 404],
    ] as const) {
      const saved = await account.request({ method: 'PUT', url: `${url}/dashboard`, as, body: { dashboardDraft: { widgets: [] } } });
      expect(saved.status).toBe(status);
      const published = await account.request({ method: 'POST', url: `${url}/publish`, as, body: { workbookId: workbook.id } });
      expect(published.status).toBe(status);
    }
  });
});
