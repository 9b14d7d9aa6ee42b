import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from '../../test-support/browser.js';
import { startTestServer, type TestServer } from '../../test-support/server.js';
import { embedSite, user, type EmbedSite } from './test-fixtures.js';

/**
 * What the dashboard page does beside drawing its charts: themes, notices about the URL, the
 * data API's `Continue wait`, targeted filters and the viewer's locale. None of it depends on the
 * metadata store, so these run on one (PGlite).
 */
const browser = useBrowser();
let server: TestServer;
let site: EmbedSite;
beforeAll(async () => {
  server = await startTestServer('pglite');
  site = await embedSite(server);
});
afterAll(async () => {
  await server?.close();
});

const LOAD = '**/cubejs-api/v1/load';
const ann = (extra: Record<string, unknown> = {}) => site.session(user('ann', 'USA', 'consumer', extra));

async function opened(page: Page, url: string): Promise<Page> {
  await page.goto(url);
  await page.waitForSelector('html[data-dashboard-loaded="true"]');
  return page;
}

// Strings run in the browser: the server's types have no DOM.
const cssVariable = (page: Page, name: string) =>
  page.evaluate<string>(`getComputedStyle(document.documentElement).getPropertyValue(${JSON.stringify(name)}).trim()`);

describe('the dashboard page beside its charts', () => {
  it("takes the account's app and embed themes, the session's embedTheme overriding, and theme=dark", async () => {
    const { account } = site;
    const embedTheme = { primaryColor: '#123456', font: 'Georgia, serif' };
    expect((await account.request({ method: 'PUT', url: '/api/v1/users/embed-theme', as: account.admin, body: embedTheme })).status).toBe(
      200,
    );
    const appTheme = { dark: { backgroundColor: '#202040' }, light: { backgroundColor: '#fdf6e3' } };
    expect((await account.request({ method: 'PUT', url: '/api/v1/app-theme', as: account.admin, body: appTheme })).status).toBe(200);
    try {
      const page = await opened(
        await browser.newPage(),
        site.dashboardUrl(await ann({ embedTheme: { primaryColor: '#abcdef' } }), { theme: 'dark' }),
      );
      expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
      // The session's colour over the account's; the account's font and dark background where the session says nothing.
      expect(await cssVariable(page, '--primary')).toBe('#abcdef');
      expect(await cssVariable(page, '--font')).toBe('Georgia, serif');
      expect(await cssVariable(page, '--page-bg')).toBe('#202040');
      expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe('rgb(32, 32, 64)');

      const plain = await opened(await browser.newPage(), site.dashboardUrl(await ann(), { theme: 'light' }));
      expect(await cssVariable(plain, '--primary')).toBe('#123456');
      expect(await cssVariable(plain, '--page-bg')).toBe('#fdf6e3');

      // The standalone chat page takes the account's themes too, once its context answers.
      const chat = await browser.newPage();
      await chat.goto(`${site.origin}/embed/chat?sessionId=${await ann()}&theme=light`);
      await expect.poll(() => cssVariable(chat, '--primary')).toBe('#123456');
      expect(await cssVariable(chat, '--page-bg')).toBe('#fdf6e3');
    } finally {
      await account.request({ method: 'PUT', url: '/api/v1/users/embed-theme', as: account.admin, body: {} });
    }
  });

  it('names each URL parameter it could not use in a dismissible notice, and applies the rest', async () => {
    const page = await opened(
      await browser.newPage(),
      site.dashboardUrl(await ann(), {
        theme: 'purple',
        f_nodot: '"x"',
        'f_my_sales.orders_status': '{"operator":"drop","values":["x"]}',
        'f_my_sales.customers_segment': '"consumer"',
      }),
    );
    const notices = await page.$$eval('[data-notice]', (nodes) => nodes.map((n) => [n.getAttribute('data-notice'), n.textContent]));
    expect(notices).toEqual([
      ['theme', expect.stringContaining('"purple" is not a theme')],
      ['f_nodot', expect.stringContaining('is not a filter')],
      ['f_my_sales.orders_status', expect.stringContaining('unknown operator "drop"')],
    ]);
    expect(await page.inputValue('#filter-segment')).toBe('consumer');
    await page.click('button[aria-label="Dismiss the notice about theme"]');
    await page.waitForSelector('[data-notice="theme"]', { state: 'detached' });
    expect(await page.$$('[data-notice]')).toHaveLength(2);
  });

  it('shows progress while the data API answers Continue wait, then the chart', async () => {
    const page = await browser.newPage();
    let waits = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(LOAD, async (route) => {
      const query = JSON.parse(route.request().postData() ?? '{}').query;
      // The KPI's query (no dimensions) is answered "still running" twice, the second time held until the test saw it.
      if (query.dimensions || query.timeDimensions || waits >= 2) return route.continue();
      waits += 1;
      if (waits === 2) await released;
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ error: 'Continue wait' }) });
    });
    await page.goto(site.dashboardUrl(await ann()));
    const progress = await page.waitForSelector('[data-widget-id="kpi"] .state-loading');
    await expect.poll(() => progress.textContent()).toContain('still working');
    release();
    await page.waitForSelector('html[data-dashboard-loaded="true"]');
    expect(waits).toBe(2);
    expect(await page.textContent('[data-widget-id="kpi"] .kpi-value')).toMatch(/\d/);
  });

  it('a filter widget with targets re-queries only the charts it targets', async () => {
    const page = await browser.newPage();
    const queries: any[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/cubejs-api/v1/load')) queries.push(JSON.parse(request.postData() ?? '{}').query);
    });
    await opened(page, site.dashboardUrl(await ann()));
    const before = queries.length;
    expect(before).toBeGreaterThan(1);
    await page.fill('#filter-segment', 'consumer');
    await page.press('#filter-segment', 'Enter');
    await page.waitForSelector('[data-widget-id="kpi"] .kpi-value');
    await expect.poll(() => queries.length).toBeGreaterThan(before);
    // Let every request the change started reach the server before counting them.
    await page.waitForLoadState('networkidle');
    const after = queries.slice(before);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      measures: ['my_sales.count'],
      filters: [{ member: 'my_sales.customers_segment', operator: 'equals', values: ['consumer'] }],
    });
    expect(after[0].dimensions ?? []).toEqual([]);
  });

  it('locale=de-DE formats numbers with German separators', async () => {
    const page = await browser.newPage();
    const answers: any[] = [];
    page.on('response', async (response) => {
      if (response.url().includes('/cubejs-api/v1/load')) answers.push(await response.json().catch(() => null));
    });
    await opened(page, site.dashboardUrl(await ann(), { locale: 'de-DE' }));
    const rows = answers.flatMap((a) => a?.data ?? a?.results?.[0]?.data ?? []);
    const revenue = Number(rows.find((r: Record<string, unknown>) => 'my_sales.revenue' in r)['my_sales.revenue']);
    expect(revenue).toBeGreaterThan(1000);
    const cell = await page.textContent('[data-widget-id="by-country"] table tbody tr td:nth-child(2)');
    expect(cell).toBe(new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 }).format(revenue));
    expect(cell).not.toBe(new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(revenue));
  });
});
