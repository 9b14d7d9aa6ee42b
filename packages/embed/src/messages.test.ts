import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlinthDashboardElement } from './element.js';
import { launchBrowser } from '@plinth/server/test-support/browser';
import { embedFrame, frameNamed, frameWhere, startEmbedOrigins, type EmbedOrigins } from './test-support/embed-origins.js';

/**
 * What the element and the page refuse, in Chromium. Each refusal is followed by a `{marker}` message
 * from the same window: messages from one window to another arrive in order, so once the marker is
 * in, the refused message has been handled (and nothing came of it), with no waiting on a clock.
 */
let browser: Browser;
let origins: EmbedOrigins;
let context: BrowserContext;
let page: Page;
let embed: Frame;

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
  await page.goto(origins.hostPage({ 'public-id': 'board-1', session: 'session-1' }));
  embed = await embedFrame(page, `${origins.plinth}/embed/dashboard/board-1`);
  await page.waitForFunction(() => window.events.some((e) => e.type === 'plinth-loaded'));
});
afterEach(async () => {
  await context.close();
});

const FORGED = [
  { plinth: 1, type: 'resize', payload: { height: 999 } },
  { plinth: 1, type: 'loaded', payload: { page: 'dashboard', title: 'forged' } },
  { plinth: 1, type: 'drillDown', payload: { member: 'orders.status', value: 'forged', query: {} } },
];
const COMMANDS = [
  { plinth: 1, type: 'setFilters', payload: { filters: [] } },
  { plinth: 1, type: 'refresh', payload: {} },
  { plinth: 1, type: 'hello', payload: { version: 1 } },
];

/** Posts the messages, then a marker, to the frame's parent from the frame's window. */
const postToParent = (frame: Frame, messages: unknown[], marker: string) =>
  frame.evaluate(
    ([list, name]) => {
      for (const data of list) window.parent.postMessage(data, '*');
      window.parent.postMessage({ marker: name }, '*');
    },
    [messages, marker] as const,
  );

const hostEvents = () => page.evaluate(() => window.events.map((e) => e.type));
const frameHeight = () =>
  page.evaluate(() => (document.getElementById('dash') as PlinthDashboardElement).iframe.getBoundingClientRect().height);

describe('the element ignores', () => {
  it('valid events from a third origin and from another window of the page origin', async () => {
    const before = await hostEvents();
    await postToParent(await frameNamed(page, 'attacker'), FORGED, 'third');
    await postToParent(await frameNamed(page, 'other-window'), FORGED, 'other');
    await page.waitForFunction(() => ['third', 'other'].every((m) => window.markers.includes(m)));
    expect(await hostEvents()).toEqual(before);
    expect(await frameHeight()).toBe(300);
  });

  it('its own iframe once it shows a document of another origin', async () => {
    const before = await hostEvents();
    await page.evaluate(
      (url) => ((document.getElementById('dash') as PlinthDashboardElement).iframe.src = url),
      `${origins.third}/attacker.html?navigated`,
    );
    const navigated = await frameWhere(page, (f) => f.url() === `${origins.third}/attacker.html?navigated`);
    await postToParent(navigated, FORGED, 'navigated');
    await page.waitForFunction(() => window.markers.includes('navigated'));
    expect(await hostEvents()).toEqual(before);
    expect(await frameHeight()).toBe(300);
  });

  it('malformed events from the page', async () => {
    await embed.evaluate(() => {
      const { raw, emit } = window.standIn;
      raw({ type: 'resize', payload: { height: 999 } });
      raw({ plinth: 2, type: 'resize', payload: { height: 999 } });
      raw({ plinth: 1, type: 'resize', payload: { height: '999' } });
      raw({ plinth: 1, type: 'loaded', payload: { page: 'admin' } });
      raw({ plinth: 1, type: 'resize' });
      raw('{"plinth":1,"type":"resize","payload":{"height":999}}');
      emit('error', { code: 'load_failed', message: 'after' });
    });
    await page.waitForFunction(() => window.events.some((e) => e.type === 'plinth-error'));
    expect(await page.evaluate(() => window.events.filter((e) => e.type !== 'plinth-resize' || e.detail.height !== 300))).toEqual([
      { type: 'plinth-ready', detail: { version: 1 } },
      { type: 'plinth-loaded', detail: { page: 'dashboard', dashboardId: 'board-1', title: 'Stand-in dashboard' } },
      { type: 'plinth-error', detail: { code: 'load_failed', message: 'after' } },
    ]);
    expect(await frameHeight()).toBe(300);
  });
});

describe('the page ignores', () => {
  it('commands from a third origin and from another window of the host origin', async () => {
    await postToParent(await frameNamed(page, 'nested-attacker'), COMMANDS, 'third');
    await postToParent(await frameNamed(page, 'nested-sibling'), COMMANDS, 'sibling');
    await embed.waitForFunction(() => ['third', 'sibling'].every((m) => window.standIn.markers.includes(m)));
    expect(await embed.evaluate(() => window.standIn.commands)).toEqual([]);
  });

  it('malformed commands from its host', async () => {
    await page.evaluate((plinth) => {
      const element = document.getElementById('dash') as PlinthDashboardElement;
      const target = element.iframe.contentWindow!;
      target.postMessage({ type: 'refresh', payload: {} }, plinth);
      target.postMessage({ plinth: 1, type: 'setFilters', payload: { filters: 'orders.status' } }, plinth);
      target.postMessage({ plinth: 1, type: 'setTheme', payload: { theme: 'blue' } }, plinth);
      target.postMessage({ plinth: 1, type: 'setTheme', payload: { theme: { primaryColor: 1 } } }, plinth);
      target.postMessage({ plinth: 1, type: 'resize', payload: { height: 1 } }, plinth);
      element.setTheme('dark');
    }, origins.plinth);
    await embed.waitForFunction(() => window.standIn.commands.length > 0);
    expect(await embed.evaluate(() => window.standIn.commands)).toEqual([{ type: 'setTheme', theme: 'dark' }]);
  });
});
