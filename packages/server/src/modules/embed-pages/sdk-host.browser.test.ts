import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { useBrowser } from '../../test-support/browser.js';
import { describeOnStores } from '../../test-support/server.js';
import { startSdkHostPage, type SdkHostPage } from './sdk-host-page.js';
import { embedSite, user, type EmbedSite } from './test-fixtures.js';

/**
 * The embedding SDK against the real dashboard page: a host page on another origin loads
 * `/embed/sdk.js` from the server and shows `<plinth-dashboard>`, as the README's host page does.
 * On both metadata stores, as every part of the embedding flow is tested.
 */
const browser = useBrowser();
let host: SdkHostPage;
beforeAll(async () => {
  host = await startSdkHostPage();
});
afterAll(async () => {
  await host?.close();
});

interface HostEvent {
  type: string;
  detail: any;
}
const events = (page: Page) => page.evaluate(() => (globalThis as any).plinthEvents as HostEvent[]);

/** The detail of the first `type` event from `from` on (the events before it were seen already). */
async function nextEvent(page: Page, type: string, from = 0): Promise<any> {
  await page.waitForFunction(([t, i]) => ((globalThis as any).plinthEvents as HostEvent[]).slice(i).some((e) => e.type === t), [
    type,
    from,
  ] as const);
  return (await events(page)).slice(from).find((e) => e.type === type)!.detail;
}

const command = (page: Page, script: string) =>
  page.evaluate(`(() => { const dashboard = document.getElementById('dashboard'); ${script}; })()`);

const kpi = (frame: Frame) => frame.textContent('[data-widget-id="kpi"] .kpi-value');

describeOnStores('the embedding SDK on the real dashboard page', (server) => {
  let site: EmbedSite;
  beforeAll(async () => {
    site = await embedSite(server());
  });

  it('the host page loads the SDK from the server: the iframe takes the content height, and events and commands cross both ways', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1000, height: 700 });
    const loads: any[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/cubejs-api/v1/load')) loads.push(JSON.parse(request.postData() ?? '{}').query);
    });
    await page.goto(host.url(site.origin, site.publicId));
    await page.waitForFunction(() => (globalThis as any).customElements.get('plinth-dashboard') !== undefined);
    const sessionId = await site.session(user('ann', 'USA', 'consumer'));
    await command(page, `dashboard.setAttribute('session', ${JSON.stringify(sessionId)})`);

    expect(await nextEvent(page, 'plinth-loaded')).toEqual({ page: 'dashboard', dashboardId: site.publicId, title: 'Sales board' });
    const frame = page.frames().find((f) => f.url().includes(`/embed/dashboard/${site.publicId}`));
    if (!frame) throw new Error('no dashboard frame');
    await frame.waitForSelector('html[data-dashboard-loaded="true"]');
    // The element's attributes reach the page as its URL parameters.
    expect(await frame.$('[data-control="back"]')).toBeNull();

    // The iframe is as tall as the dashboard (taller than the host's viewport), and never scrolls inside.
    const frameHeight = async () => (await page.locator('plinth-dashboard iframe').boundingBox())?.height ?? 0;
    const contentHeight = () =>
      frame.evaluate(() => Math.ceil((globalThis as any).document.documentElement.getBoundingClientRect().height));
    await expect.poll(async () => (await frameHeight()) - (await contentHeight())).toBe(0);
    expect(await frameHeight()).toBeGreaterThan(700);
    expect(
      await frame.evaluate(() => (globalThis as any).document.documentElement.scrollHeight - (globalThis as any).innerHeight),
    ).toBeLessThanOrEqual(0);
    const resized = (await events(page)).filter((e) => e.type === 'plinth-resize').at(-1)?.detail;
    expect(resized).toEqual({ height: await frameHeight() });

    // setFilters from the host replaces the dashboard's filters: the charts run again with it, the filter widget shows it.
    const everyOrder = await kpi(frame);
    let seen = (await events(page)).length;
    loads.length = 0;
    await command(page, `dashboard.setFilters({ 'my_sales.orders_status': 'completed' })`);
    const completed = [{ member: 'my_sales.orders_status', operator: 'equals', values: ['completed'] }];
    expect(await nextEvent(page, 'plinth-filter-changed', seen)).toEqual({ filters: completed });
    await expect.poll(() => kpi(frame)).not.toBe(everyOrder);
    expect(loads.length).toBeGreaterThanOrEqual(3);
    expect(loads.every((q) => JSON.stringify(q.filters) === JSON.stringify(completed))).toBe(true);
    expect(await frame.inputValue('#filter-status')).toBe('completed');

    // The viewer's change of a filter widget reaches the host: all the filters, without the page's own targeting.
    seen = (await events(page)).length;
    await frame.fill('#filter-status', 'shipped');
    await frame.press('#filter-status', 'Enter');
    expect(await nextEvent(page, 'plinth-filter-changed', seen)).toEqual({
      filters: [{ member: 'my_sales.orders_status', operator: 'equals', values: ['shipped'] }],
    });
    await frame.waitForSelector('[data-widget-id="by-country"] [data-drawn="true"]');

    // A click on a bar is a drill-down: the category's member and raw value, with the chart's query as it ran.
    seen = (await events(page)).length;
    // Bars are drawn in the page's first series colour: the account theme's accent when it has one.
    const seriesColour = await frame.evaluate(
      () => (globalThis as any).document.documentElement.style.getPropertyValue('--primary').trim() || '#3b5bdb',
    );
    await frame.click(`[data-widget-id="by-country"] [data-drawn="true"] svg path[fill="${seriesColour}"]`);
    const drill = await nextEvent(page, 'plinth-drill-down', seen);
    expect(drill).toMatchObject({ member: 'my_sales.customers_country', value: 'USA', widgetId: 'by-country' });
    expect(drill.query).toMatchObject({
      measures: ['my_sales.revenue'],
      dimensions: ['my_sales.customers_country'],
      filters: [{ member: 'my_sales.orders_status', operator: 'equals', values: ['shipped'] }],
    });

    // refresh runs every chart on screen again; setTheme switches the page to dark.
    loads.length = 0;
    await command(page, 'dashboard.refresh()');
    await expect.poll(() => loads.length).toBeGreaterThanOrEqual(3);
    await command(page, `dashboard.setTheme('dark')`);
    await frame.waitForSelector('html[data-theme="dark"]');
    expect((await events(page)).filter((e) => e.type === 'plinth-error')).toEqual([]);
  });
});
