import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlinthDashboardElement } from './element.js';
import { launchBrowser } from '@plinth/server/test-support/browser';
import { embedFrame, startEmbedOrigins, type EmbedOrigins } from './test-support/embed-origins.js';

/**
 * <plinth-dashboard> in Chromium: a host page on one origin, the stand-in embed page (on
 * connectHost) on another, and a third origin that must get nowhere.
 */
let browser: Browser;
let origins: EmbedOrigins;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [browser, origins] = await Promise.all([launchBrowser(), startEmbedOrigins()]);
});
afterAll(async () => {
  await browser?.close();
  await origins?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

const waitForHeight = (p: Page, height: number) =>
  p.waitForFunction((h) => (document.getElementById('dash') as PlinthDashboardElement).iframe.getBoundingClientRect().height === h, height);

async function openDashboard(attributes: Record<string, string> = {}) {
  const all = { 'public-id': 'board-1', session: 'session-1', ...attributes };
  await page.goto(origins.hostPage(all));
  const frame = await embedFrame(page, `${origins.plinth}/embed/dashboard/${all['public-id']}?`);
  await waitForHeight(page, 300);
  return frame;
}

describe('<plinth-dashboard>', () => {
  it('opens the page the attributes describe and sizes the iframe to its content as it grows and shrinks', async () => {
    const attributes = { 'hide-title': '', 'hide-edit': 'false', theme: 'dark', locale: 'fr-FR', filters: '{"orders.status":"completed"}' };
    const frame = await openDashboard(attributes);
    const url = new URL(frame.url());
    expect(url.pathname).toBe('/embed/dashboard/board-1');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      session: 'session-1',
      hideTitle: 'true',
      hideEdit: 'false',
      theme: 'dark',
      locale: 'fr-FR',
      'f_orders.status': '"completed"',
    });
    // The page learnt the host's origin, and the referrer carries no more than the origin.
    expect(await frame.evaluate(() => [window.standIn.connection.hostOrigin, window.standIn.referrer])).toEqual([
      origins.host,
      `${origins.host}/`,
    ]);

    await frame.evaluate(() => window.standIn.setHeight(900));
    await waitForHeight(page, 900);
    await frame.evaluate(() => window.standIn.setHeight(120));
    await waitForHeight(page, 120);
    expect(await page.evaluate(() => window.events.filter((e) => e.type === 'plinth-resize').map((e) => e.detail.height))).toEqual([
      300, 900, 120,
    ]);
  });

  it('re-dispatches the page events as DOM events, in order', async () => {
    const frame = await openDashboard();
    await frame.evaluate(() => {
      window.standIn.emit('filterChanged', { filters: [{ member: 'orders.status', operator: 'equals', values: ['shipped'] }] });
      window.standIn.emit('drillDown', {
        member: 'orders.status',
        value: 'shipped',
        query: { measures: ['orders.count'] },
        widgetId: 'w1',
      });
      window.standIn.emit('error', { code: 'query_failed', message: 'The warehouse is unreachable' });
    });
    await page.waitForFunction(() => window.events.some((e) => e.type === 'plinth-error'));
    const events = await page.evaluate(() => window.events.filter((e) => e.type !== 'plinth-resize'));
    expect(events).toEqual([
      { type: 'plinth-ready', detail: { version: 1 } },
      { type: 'plinth-loaded', detail: { page: 'dashboard', dashboardId: 'board-1', title: 'Stand-in dashboard' } },
      { type: 'plinth-filter-changed', detail: { filters: [{ member: 'orders.status', operator: 'equals', values: ['shipped'] }] } },
      {
        type: 'plinth-drill-down',
        detail: { member: 'orders.status', value: 'shipped', query: { measures: ['orders.count'] }, widgetId: 'w1' },
      },
      { type: 'plinth-error', detail: { code: 'query_failed', message: 'The warehouse is unreachable' } },
    ]);
  });

  it('delivers its commands to the page, and sends theme and filter attribute changes instead of reloading', async () => {
    const frame = await openDashboard();
    await frame.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.evaluate(() => {
      const element = document.getElementById('dash') as PlinthDashboardElement;
      element.setFilters({ 'orders.city': 'Paris', 'orders.total': { operator: 'gt', values: ['10'] } });
      element.setTheme({ mode: 'dark', primaryColor: '#123456' });
      element.refresh();
      element.setAttribute('theme', 'light');
      element.setAttribute('filters', '{"orders.status":"shipped"}');
      element.setAttribute('theme', 'light'); // Unchanged: nothing is sent.
      element.refresh(); // Arrives after anything sent before it.
    });
    await frame.waitForFunction(() => window.standIn.commands.length >= 6);
    expect(await frame.evaluate(() => [window.standIn.commands, 'sameDocument' in window])).toEqual([
      [
        {
          type: 'setFilters',
          filters: [
            { member: 'orders.city', operator: 'equals', values: ['Paris'] },
            { member: 'orders.total', operator: 'gt', values: ['10'] },
          ],
        },
        { type: 'setTheme', theme: { mode: 'dark', primaryColor: '#123456' } },
        { type: 'refresh' },
        { type: 'setTheme', theme: 'light' },
        { type: 'setFilters', filters: [{ member: 'orders.status', operator: 'equals', values: ['shipped'] }] },
        { type: 'refresh' },
      ],
      true,
    ]);
  });

  it('keeps commands given before the page is ready and delivers them once it is', async () => {
    await openDashboard();
    await page.evaluate((base) => {
      const element = document.createElement('plinth-dashboard');
      Object.entries({ 'base-url': base, 'public-id': 'early', session: 'session-2' }).forEach(([k, v]) => element.setAttribute(k, v));
      document.body.append(element);
      element.setTheme('dark');
      element.setTheme('light'); // The latest of a kind wins.
      element.refresh();
    }, origins.plinth);
    const frame = await embedFrame(page, `${origins.plinth}/embed/dashboard/early`);
    await frame.waitForFunction(() => window.standIn.commands.length === 2);
    expect(await frame.evaluate(() => window.standIn.commands)).toEqual([{ type: 'setTheme', theme: 'light' }, { type: 'refresh' }]);
  });

  it('reaches a page that learns its host origin only from the hello handshake', async () => {
    const frame = await openDashboard({ 'public-id': 'handshake' });
    expect(await frame.evaluate(() => window.standIn.connection.hostOrigin)).toBe(origins.host);
    await page.waitForFunction(() => window.events.some((e) => e.type === 'plinth-loaded'));
    // What the page said before it knew where to send it (loaded, and the height openDashboard waited for) arrives after ready.
    expect(await page.evaluate(() => window.events.map((e) => e.type).filter((t) => t !== 'plinth-resize'))).toEqual([
      'plinth-ready',
      'plinth-loaded',
    ]);
    await page.evaluate(() => (document.getElementById('dash') as PlinthDashboardElement).refresh());
    await frame.waitForFunction(() => window.standIn.commands.length === 1);
    expect(await frame.evaluate(() => window.standIn.commands)).toEqual([{ type: 'refresh' }]);
  });

  it('corrects a page whose referrer named another origin with the hello handshake', async () => {
    const frame = await openDashboard({ 'public-id': 'wrong-referrer' });
    expect(await frame.evaluate(() => window.standIn.connection.hostOrigin)).toBe(origins.host);
    await page.evaluate(() => (document.getElementById('dash') as PlinthDashboardElement).setTheme('dark'));
    await frame.waitForFunction(() => window.standIn.commands.length === 1);
    expect(await frame.evaluate(() => window.standIn.commands)).toEqual([{ type: 'setTheme', theme: 'dark' }]);
  });

  it('waits for a session, and says what is wrong with its attributes without loading anything', async () => {
    await openDashboard();
    const result = await page.evaluate((base) => {
      const element = document.createElement('plinth-dashboard');
      element.setAttribute('base-url', base);
      const errors: unknown[] = [];
      element.addEventListener('plinth-error', (e) => errors.push((e as CustomEvent).detail));
      document.body.append(element);
      const waiting = errors.length;
      element.setAttribute('session', 's');
      element.setAttribute('base-url', 'javascript:alert(1)');
      element.setAttribute('filters', '{not json');
      return { waiting, errors, src: element.iframe.src };
    }, origins.plinth);
    expect(result.src).toBe('');
    expect(result.waiting).toBe(0);
    expect(result.errors).toEqual([
      { code: 'invalid_config', message: expect.stringMatching(/public-id is required/) },
      { code: 'invalid_config', message: expect.stringMatching(/base-url must be an absolute/) },
      { code: 'invalid_config', message: expect.stringMatching(/filters must be a JSON object/) },
    ]);
  });
});
