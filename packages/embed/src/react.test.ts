import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PlinthDashboardElement } from './element.js';
import { launchBrowser } from '@plinth/server/test-support/browser';
import { embedFrame, startEmbedOrigins, type EmbedOrigins } from './test-support/embed-origins.js';

/** <PlinthDashboard> in Chromium (react-host.ts): props become attributes, events reach the `on…` props, the ref's methods reach the page. */
let browser: Browser;
let origins: EmbedOrigins;

beforeAll(async () => {
  [browser, origins] = await Promise.all([launchBrowser(), startEmbedOrigins()]);
});
afterAll(async () => {
  await browser?.close();
  await origins?.close();
});

it('renders the element, calls the event props and passes the ref methods to the page', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(origins.reactPage());
    const frame = await embedFrame(page, `${origins.plinth}/embed/dashboard/react-board`);
    expect(Object.fromEntries(new URL(frame.url()).searchParams)).toEqual({
      session: 'react-session',
      hideTitle: 'true',
      'f_orders.status': '"completed"',
    });
    await page.waitForFunction(() => window.reactEvents.some((e) => e.prop === 'onLoaded'));

    await frame.evaluate(() => {
      window.standIn.setHeight(480);
      window.standIn.emit('filterChanged', { filters: [{ member: 'orders.status', operator: 'equals', values: ['shipped'] }] });
      window.standIn.emit('drillDown', { member: 'orders.status', value: 'shipped', query: { dimensions: ['orders.status'] } });
      window.standIn.emit('error', { code: 'query_failed', message: 'boom' });
    });
    await page.waitForFunction(() => window.reactEvents.some((e) => e.prop === 'onError'));
    const events = await page.evaluate(() => window.reactEvents.filter((e) => e.prop !== 'onResize'));
    expect(events).toEqual([
      { prop: 'onLoaded', detail: { page: 'dashboard', dashboardId: 'react-board', title: 'Stand-in dashboard' } },
      { prop: 'onFilterChanged', detail: { filters: [{ member: 'orders.status', operator: 'equals', values: ['shipped'] }] } },
      { prop: 'onDrillDown', detail: { member: 'orders.status', value: 'shipped', query: { dimensions: ['orders.status'] } } },
      { prop: 'onError', detail: { code: 'query_failed', message: 'boom' } },
    ]);
    await page.waitForFunction(() => {
      const element = document.querySelector('plinth-dashboard') as PlinthDashboardElement;
      return element.iframe.getBoundingClientRect().height === 480;
    });
    expect(await page.evaluate(() => window.reactEvents.filter((e) => e.prop === 'onResize').map((e) => e.detail))).toContainEqual({
      height: 480,
    });

    await page.evaluate(() => {
      window.dashboard!.setFilters({ 'orders.city': ['Paris', 'Lyon'] });
      window.dashboard!.setTheme('dark');
      window.dashboard!.refresh();
    });
    await frame.waitForFunction(() => window.standIn.commands.length === 3);
    expect(await frame.evaluate(() => window.standIn.commands)).toEqual([
      { type: 'setFilters', filters: [{ member: 'orders.city', operator: 'equals', values: ['Paris', 'Lyon'] }] },
      { type: 'setTheme', theme: 'dark' },
      { type: 'refresh' },
    ]);
  } finally {
    await context.close();
  }
});
