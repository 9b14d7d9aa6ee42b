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
});
