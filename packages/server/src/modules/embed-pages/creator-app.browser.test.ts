import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousAxeViolations, useBrowser } from '../../test-support/browser.js';
import { describeOnStores } from '../../test-support/server.js';
import { embedSite, user, VIEW, type EmbedSite } from './test-fixtures.js';

/**
 * Creator mode in Chromium: a creator-mode session of an embed tenant builds a report with the
 * query builder's clicks, places it on the dashboard and publishes it on the app page; the
 * tenant's read-only sessions see it, another tenant's do not; Duplicate and Edit work in place.
 */
const browser = useBrowser();
const TENANT = 'acme-corp';

/** A creator of the tenant: USA consumer rows, the country attribute defined in the tenant's catalog. */
const creator = (externalId: string) => ({
  ...user(externalId, 'USA', 'consumer'),
  creatorMode: true,
  embedTenantName: TENANT,
  userAttributeDefinitions: [{ name: 'country', type: 'string' }],
});

const noSidewaysScroll = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

describeOnStores('the creator-mode app page in a browser', (server) => {
  let site: EmbedSite;
  let publicId: string;
  const appUrl = (sessionId: string) => `${site.origin}/embed/d/${site.deploymentId}/app?session=${encodeURIComponent(sessionId)}`;
  beforeAll(async () => {
    site = await embedSite(server());
    await server().services.tenantSettings.update(site.account.id, { useCreatorMode: true });
  });

  it('a creator builds a report by clicks, places it, publishes; at 390 px, with no serious axe violation', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    const queries: any[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/cubejs-api/v1/load')) queries.push(JSON.parse(request.postData() ?? '{}').query);
    });
    await page.goto(appUrl(await site.session(creator('cara'))));
    await page.fill('#new-workbook', 'Acme sales');
    await page.click('[data-action="create-workbook"]');
    await page.waitForSelector('#workbook-title:text("Acme sales")');

    await page.click('[data-action="new-report"]');
    await page.selectOption('#qb-view', VIEW);
    await page.fill('#qb-name', 'Orders by month');
    await page.check(`[data-picker="measures"] input[value="${VIEW}.count"]`);
    await page.selectOption('#qb-time', `${VIEW}.orders_created_at`);
    await page.selectOption('#qb-grain', 'year');
    await page.click('[data-action="add-filter"]');
    await page.selectOption('[data-filter-row="0"] select >> nth=0', `${VIEW}.orders_status`);
    await page.selectOption('[data-filter-row="0"] select >> nth=1', 'notEquals');
    await page.fill('[data-filter-row="0"] input', 'no-such-status');
    await page.check('input[name="chart-type"][value="bar"]');
    await page.waitForSelector('.qb-preview [data-chart-type="bar"][data-drawn="true"] svg path', { state: 'attached' });
    // The filter's value is sent after a pause in typing: a loaded machine may draw the chart of the
    // query before it first, so wait for the query that carries it.
    await expect
      .poll(() => queries.at(-1), { timeout: 15_000 })
      .toEqual({
        measures: [`${VIEW}.count`],
        timeDimensions: [{ dimension: `${VIEW}.orders_created_at`, granularity: 'year' }],
        filters: [{ member: `${VIEW}.orders_status`, operator: 'notEquals', values: ['no-such-status'] }],
      });
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.click('[data-action="save-report"]');
    await page.click('[data-report="Orders by month"] [data-action="place-report"]');
    await page.click('button:text("Add text")');
    await page.fill('[data-draft-widget="TEXT"] textarea', 'Our orders, year by year.');
    await page.click('[aria-label="Move Text up"]');
    expect(await page.$$eval('[data-draft-widget]', (items) => items.map((i) => i.getAttribute('data-draft-widget')))).toEqual([
      'TEXT',
      'CHART',
    ]);
    await page.fill('#dashboard-title', 'Acme board');
    await page.click('[data-action="publish"]');
    await page.waitForSelector('[data-published] [data-widget-id] [data-drawn="true"] svg path', { state: 'attached' });
    publicId = (await page.textContent('[data-public-id]'))!;
    expect(publicId).toMatch(/\S/);
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // What was saved is the tenant's: its draft and report as the builder made them.
    const saved = await site.account.request({
      method: 'GET',
      url: `/api/v1/embed/dashboard/${publicId}`,
      as: await embedToken(site, user('bob', 'USA', 'consumer', { embedTenantName: TENANT })),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      config: { title: 'Acme board' },
      reportSnapshots: [{ name: 'Orders by month', meta: { chartType: 'bar' } }],
    });
  });

  it("the tenant's read-only session sees the published chart; another tenant's session gets the not-found state", async () => {
    const page = await browser.newPage();
    await page.goto(
      `${site.origin}/embed/dashboard/${publicId}?session=${await site.session(user('bob', 'USA', 'consumer', { embedTenantName: TENANT }))}`,
    );
    await page.waitForSelector('html[data-dashboard-loaded="true"]');
    expect(await page.textContent('h1')).toBe('Acme board');
    expect(await page.$$('[data-chart-type="bar"][data-drawn="true"] svg path')).not.toHaveLength(0);
    expect(await page.$('[data-control="edit"]')).toBeNull();

    const other = await browser.newPage();
    await other.goto(
      `${site.origin}/embed/dashboard/${publicId}?session=${await site.session(user('erin', 'USA', 'consumer', { embedTenantName: 'umbrella-co' }))}`,
    );
    await other.waitForSelector('[data-page-state="not-found"]');
  });

  it('duplicates and deletes on the app page; Duplicate and Edit on the dashboard page open the app in place on one session', async () => {
    const page = await browser.newPage();
    await page.goto(appUrl(await site.session(creator('dan'))));
    await page.click('[data-workbook="Acme sales"] [data-action="duplicate"]');
    await page.waitForSelector('[data-workbook="Acme sales (copy)"]');
    await page.click('[data-workbook="Acme sales (copy)"] [data-action="delete"]');
    await page.click('[data-workbook="Acme sales (copy)"] [data-action="confirm-delete"]');
    await page.waitForSelector('[data-workbook="Acme sales (copy)"]', { state: 'detached' });

    const dashboard = await browser.newPage();
    let exchanges = 0;
    dashboard.on('request', (request) => {
      if (request.url().endsWith('/api/v1/embed/session/token')) exchanges++;
    });
    await dashboard.goto(`${site.origin}/embed/dashboard/${publicId}?session=${await site.session(creator('eve'))}`);
    await dashboard.waitForSelector('html[data-dashboard-loaded="true"]');
    await dashboard.click('[data-control="duplicate"]');
    await dashboard.waitForSelector('#workbook-title:text("Acme sales (copy)")');
    // The copy brings its report and its draft along.
    await dashboard.waitForSelector('[data-report="Orders by month"]');
    expect(await dashboard.$$('[data-draft-widget]')).toHaveLength(2);
    await dashboard.click('[data-action="exit-app"]');
    await dashboard.click('[data-control="edit"]');
    await dashboard.waitForSelector('#workbook-title:text-is("Acme sales")');

    // Editing a report: the builder opens on its query; a new chart type is saved with updateReport.
    await dashboard.click('[aria-label="Edit Orders by month"]');
    expect(await dashboard.isChecked(`[data-picker="measures"] input[value="${VIEW}.count"]`)).toBe(true);
    await dashboard.check('input[name="chart-type"][value="line"]');
    await dashboard.waitForSelector('.qb-preview [data-chart-type="line"][data-drawn="true"]');
    await dashboard.click('[data-action="save-report"]');
    await dashboard.waitForSelector('text=Report “Orders by month” saved.');
    expect(exchanges).toBe(1);
    const reports = await site.account.request({
      method: 'GET',
      url: `/api/v1/deployments/${site.deploymentId}/reports`,
      as: await embedToken(site, creator('fay')),
    });
    expect(reports.status, reports.text).toBe(200);
    const edited = reports.body.data.filter((r: { name: string }) => r.name === 'Orders by month');
    // The original's report now draws a line; the copy's keeps its bar.
    expect(edited.map((r: { meta: { chartType: string } }) => r.meta.chartType).sort()).toEqual(['bar', 'line']);
    expect(JSON.parse(edited[0].jsonQuery)).toMatchObject({ measures: [`${VIEW}.count`] });
  });
});

/** An embed token for API checks, minted as a host page would (generate-session, then the exchange). */
async function embedToken(site: EmbedSite, body: Record<string, unknown>): Promise<string> {
  const sessionId = await site.session(body);
  const exchanged = await site.account.request({ method: 'POST', url: '/api/v1/embed/session/token', body: { sessionId } });
  expect(exchanged.status, exchanged.text).toBe(200);
  return exchanged.body.token as string;
}
