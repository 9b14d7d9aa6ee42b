import type { Page } from 'playwright-core';
import { RenderError } from './errors.js';
import type { RenderedWidget, RenderFormat } from './types.js';

/** Longest a dashboard may take to draw every chart before the rendering is given up (and tried again later). */
const LOAD_TIMEOUT_MS = 90_000;
/** Drawn, or a whole-page message (expired session, failure, not found) that will not change. */
const SETTLED = 'html[data-dashboard-loaded="true"], [data-page-state]:not([data-page-state="opening"])';
/**
 * The viewer's avatar (a rendering may be shared by viewers who see the same rows) and controls
 * nobody can press on an image: the back button, the creator's buttons, the chat launcher.
 */
const RENDERER_STYLE = '.header-actions, [data-control="back"], [data-chat-launcher] { visibility: hidden !important; }';

export interface Captured {
  png?: Buffer;
  pdf?: Buffer;
  widgets: RenderedWidget[];
}

/**
 * Opens the embed dashboard page with the viewer's session, waits until every chart on screen has
 * drawn, then reads what each widget shows and captures the formats asked for.
 */
export async function capture(page: Page, url: string, formats: RenderFormat[]): Promise<Captured> {
  await page.goto(url, { timeout: LOAD_TIMEOUT_MS });
  try {
    await page.waitForSelector(SETTLED, { timeout: LOAD_TIMEOUT_MS });
  } catch (error) {
    throw new RenderError(`The dashboard did not finish drawing within ${LOAD_TIMEOUT_MS / 1000} s`, true, { cause: error });
  }
  const state = await page.$eval('html', (html) => {
    const message = html.querySelector('[data-page-state]');
    if (!message) return null;
    const parts = [...message.children].map((child) => child.textContent?.trim() ?? '').filter(Boolean);
    return { kind: message.getAttribute('data-page-state'), text: parts.join(' ') };
  });
  if (state) throw new RenderError(`The dashboard page showed "${state.text}" (${state.kind})`, state.kind === 'error');
  const failed = await page.$$eval('[data-widget-id] .state-error', (errors) =>
    errors.map((e) => `${e.closest('[data-widget-id]')?.getAttribute('data-widget-id')}: ${e.querySelector('p')?.textContent ?? ''}`),
  );
  if (failed.length > 0) throw new RenderError(`Charts of the dashboard failed: ${failed.join('; ')}`, true);

  const widgets = await page.$$eval('[data-widget-id]', (sections) =>
    sections.map((section) => {
      // A tab container holds other widgets: each value belongs to its innermost widget only.
      const own = (selector: string) => [...section.querySelectorAll(selector)].filter((e) => e.closest('[data-widget-id]') === section);
      const kpis = own('.kpi-value').map((v) => v.textContent ?? '');
      const rows = own('table tbody tr').map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));
      return { id: section.getAttribute('data-widget-id') ?? '', rows: kpis.length > 0 ? [kpis] : rows };
    }),
  );
  await page.addStyleTag({ content: RENDERER_STYLE });
  const captured: Captured = { widgets };
  if (formats.includes('png')) captured.png = await page.screenshot({ fullPage: true, type: 'png' });
  if (formats.includes('pdf')) {
    await page.emulateMedia({ media: 'screen' });
    captured.pdf = await page.pdf({ format: 'A4', landscape: true, printBackground: true });
  }
  return captured;
}
