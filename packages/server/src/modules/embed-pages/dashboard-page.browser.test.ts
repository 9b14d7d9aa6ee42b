import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { seriousAxeViolations, useBrowser } from '../../test-support/browser.js';
import { describeOnStores } from '../../test-support/server.js';
import { embedSite, startHostPage, user, type EmbedSite, type HostPage } from './test-fixtures.js';

/**
 * The dashboard page in Chromium, inside the iframe of a page on another origin, against a
 * listening server with the demo deployment: what an embedded user sees.
 */
const browser = useBrowser();
let host: HostPage;
beforeAll(async () => {
  host = await startHostPage();
});
afterAll(async () => {
  await host?.close();
});

/** The embed page's frame of the host page, once its dashboard has drawn every chart. */
async function framed(page: Page, src: string, width = 1000): Promise<Frame> {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(host.url(src, width));
  const frame = await (await page.waitForSelector('iframe#embed')).contentFrame();
  if (!frame) throw new Error('the iframe has no frame');
  await frame.waitForSelector('html[data-dashboard-loaded="true"]');
  return frame;
}

/** The page opened on its own, once every chart on screen has drawn. */
async function opened(page: Page, url: string): Promise<Page> {
  await page.goto(url);
  await page.waitForSelector('html[data-dashboard-loaded="true"]');
  return page;
}

/** The values the bar chart lists for assistive technology (its visually hidden table). */
const countries = (frame: Frame) =>
  frame.$$eval('[data-widget-id="by-country"] table tbody tr td:first-child', (cells) => cells.map((c) => c.textContent));

describeOnStores('the embedded dashboard page in a browser', (server) => {
  let site: EmbedSite;
  beforeAll(async () => {
    site = await embedSite(server());
  });

  it('two users of two tenants see their own rows of the same dashboard, in an iframe of another origin, with no serious axe violation', async () => {
    const ann = await browser.newPage();
    const annFrame = await framed(ann, site.dashboardUrl(await site.session(user('ann', 'USA', 'consumer'))));
    expect(await countries(annFrame)).toEqual(['USA']);
    // The session left the URL the moment it was read, and the page drew a chart with its data.
    expect(new URL(annFrame.url()).searchParams.has('session')).toBe(false);
    expect(await annFrame.$$('[data-widget-id="by-country"] [data-drawn="true"] svg path')).not.toHaveLength(0);
    expect(await annFrame.textContent('h1')).toBe('Sales board');
    expect(await seriousAxeViolations(annFrame)).toEqual([]);

    const bob = await browser.newPage();
    const bobSession = await site.session(user('bob', 'France', 'corporate', { embedTenantName: 'tenant-bob' }));
    const bobFrame = await framed(bob, site.dashboardUrl(bobSession));
    expect(await countries(bobFrame)).toEqual(['France']);
    const kpi = async (frame: Frame) => frame.textContent('[data-widget-id="kpi"] .kpi-value');
    expect(await kpi(annFrame)).not.toBe(await kpi(bobFrame));
  });

  it('at 390 px the page scrolls only vertically', async () => {
    const page = await browser.newPage();
    const frame = await framed(page, site.dashboardUrl(await site.session(user('ann', 'USA', 'consumer'))), 390);
    const overflow = await frame.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('a used, unknown or missing session shows "This link has expired"', async () => {
    const sessionId = await site.session(user('ann', 'USA', 'consumer'));
    const page = await browser.newPage();
    await framed(page, site.dashboardUrl(sessionId));
    for (const url of [
      site.dashboardUrl(sessionId),
      site.dashboardUrl('no-such-session'),
      `${site.origin}/embed/dashboard/${site.publicId}`,
    ]) {
      await page.goto(url);
      await page.waitForSelector('[data-page-state="expired"]');
      expect(await page.textContent('h1')).toBe('This link has expired');
    }
  });

  it('the avatar falls back to initials when the picture fails to load; each header parameter hides its control', async () => {
    const profile = { userProfile: { displayName: 'Ann Lee', picture: 'http://127.0.0.1:9/ann.png' } };
    const page = await opened(await browser.newPage(), site.dashboardUrl(await site.session(user('ann', 'USA', 'consumer', profile))));
    await page.waitForSelector('[data-avatar="initials"]');
    expect(await page.textContent('[data-avatar="initials"]')).toBe('AL');
    expect(await page.getAttribute('[data-avatar="initials"]', 'aria-label')).toBe('Ann Lee');
    expect(await page.isVisible('[data-control="back"]')).toBe(true);
    expect(await page.isVisible('h1.title')).toBe(true);
    // Edit and Duplicate are for creator-mode sessions only.
    expect(await page.$('[data-control="edit"]')).toBeNull();
    expect(await page.$('[data-control="duplicate"]')).toBeNull();

    const hidden = await opened(
      await browser.newPage(),
      site.dashboardUrl(await site.session(user('ann', 'USA', 'consumer')), { hideTitle: 'true', hideBackButton: 'true' }),
    );
    expect(await hidden.$('[data-control="back"]')).toBeNull();
    expect(await hidden.$('h1.title')).toBeNull();
    expect(await hidden.textContent('h1')).toBe('Sales board');

    await server().services.tenantSettings.update(site.account.id, { useCreatorMode: true });
    const creator = (params: Record<string, string>) =>
      site.session({ externalId: 'cara', creatorMode: true, embedTenantName: 'creators' }).then((id) => site.dashboardUrl(id, params));
    const both = await opened(await browser.newPage(), await creator({ hideEdit: 'false' }));
    expect(await both.isVisible('[data-control="edit"]')).toBe(true);
    expect(await both.isVisible('[data-control="duplicate"]')).toBe(true);
    const noEdit = await opened(await browser.newPage(), await creator({ hideEdit: 'true' }));
    expect(await noEdit.$('[data-control="edit"]')).toBeNull();
    expect(await noEdit.isVisible('[data-control="duplicate"]')).toBe(true);
    const noDuplicate = await opened(await browser.newPage(), await creator({ hideDuplicate: 'true' }));
    expect(await noDuplicate.isVisible('[data-control="edit"]')).toBe(true);
    expect(await noDuplicate.$('[data-control="duplicate"]')).toBeNull();
  });

  it('f_ parameters preset the filters of the charts on their view, a bare value meaning equals', async () => {
    const queries: any[] = [];
    const page = await browser.newPage();
    page.on('request', (request) => {
      if (request.url().includes('/cubejs-api/v1/load')) queries.push(JSON.parse(request.postData() ?? '{}').query);
    });
    const presets = {
      'f_my_sales.orders_status': '"completed"',
      'f_my_sales.customers_segment': '{"operator":"notEquals","values":["x"]}',
    };
    await opened(page, site.dashboardUrl(await site.session(user('ann', 'USA', 'consumer')), presets));
    expect(queries.length).toBeGreaterThan(1);
    const status = { member: 'my_sales.orders_status', operator: 'equals', values: ['completed'] };
    const segment = { member: 'my_sales.customers_segment', operator: 'notEquals', values: ['x'] };
    // The segment's FILTER widget targets the KPI only, so its preset narrows that chart alone.
    const isKpi = (q: any) => q.measures?.length === 1 && !q.dimensions?.length && !q.timeDimensions?.length;
    for (const query of queries) expect(query.filters).toEqual(isKpi(query) ? [status, segment] : [status]);
    expect(queries.filter(isKpi)).toHaveLength(1);
    expect(await page.inputValue('#filter-status')).toBe('completed');

    // Changing the filter widget reloads the charts it targets with the new value.
    queries.length = 0;
    await page.fill('#filter-status', 'shipped');
    await page.press('#filter-status', 'Enter');
    await expect.poll(() => queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q.filters.some((f: any) => f.values?.[0] === 'shipped'))).toBe(true);
  });

  it('showDashboardChat: true shows the launcher, false hides it, omitted follows the account (shown by default)', async () => {
    const launcher = async (settings?: { showDashboardChat: boolean }) => {
      const page = await opened(
        await browser.newPage(),
        site.dashboardUrl(await site.session(user('ann', 'USA', 'consumer', settings ? { settings } : {}))),
      );
      return page.$('button[data-chat-launcher]');
    };
    const shown = await launcher({ showDashboardChat: true });
    expect(await shown?.getAttribute('aria-label')).toMatch(/chat/i);
    await shown!.click();
    const page = (await shown!.ownerFrame())!.page();
    await page.waitForSelector('[data-chat-panel] [data-chat-slot]');
    expect(await launcher({ showDashboardChat: false })).toBeNull();
    expect(await launcher()).not.toBeNull();
    await server().services.tenantSettings.update(site.account.id, { showDashboardChat: false });
    try {
      expect(await launcher()).toBeNull();
      expect(await launcher({ showDashboardChat: true })).not.toBeNull();
    } finally {
      await server().services.tenantSettings.update(site.account.id, { showDashboardChat: true });
    }
  });
});
