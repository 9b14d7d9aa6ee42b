import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { useBrowser } from '../../test-support/browser.js';
import { freePort } from '../../test-support/server-process.js';
import { describeOnStores } from '../../test-support/server.js';
import { embedSite } from './test-fixtures.js';

/**
 * examples/embed-host as a newcomer runs it: its own server (a customer's product on 127.0.0.1),
 * pointed at a Plinth server with the demo deployment, finds the demo's dashboard itself and
 * embeds it for ann and bob with the SDK the Plinth server serves; on both metadata stores.
 */
const EXAMPLE = fileURLToPath(new URL('../../../../../examples/embed-host/server.mjs', import.meta.url));
const browser = useBrowser();
let exampleUrl = '';

/** The embedded dashboard of the example's page for a user, once every chart drew. */
async function dashboardOf(page: Page, userKey: string): Promise<Frame> {
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.goto(`${exampleUrl}/?user=${userKey}`);
  await page.waitForFunction(() => /plinth-loaded /.test((globalThis as any).document.getElementById('log')?.textContent ?? ''));
  const frame = page.frames().find((f) => f.url().includes('/embed/dashboard/'));
  if (!frame) throw new Error('no dashboard frame');
  await frame.waitForSelector('html[data-dashboard-loaded="true"]');
  return frame;
}

/** The demo's table of revenue by country and segment, as the user reads it: country and segment of each row. */
const segmentRows = (frame: Frame) =>
  frame.$$eval('[data-widget-id="segments"] table tbody tr', (rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].slice(0, 2).map((cell) => cell.textContent)),
  );

describeOnStores('examples/embed-host against a server', (server) => {
  let example: ChildProcess | undefined;
  beforeAll(async () => {
    const site = await embedSite(server());
    // The example's backend calls Plinth from Node, which cannot resolve test hosts: the account answers on localhost too.
    await server().store.db.updateTable('account').set({ custom_domain: 'localhost' }).where('id', '=', site.account.id).execute();
    server().services.accounts.forgetAll();
    const port = await freePort();
    const plinthUrl = site.origin.replace(site.account.host, 'localhost');
    example = spawn(process.execPath, [EXAMPLE], {
      env: {
        PATH: process.env.PATH,
        PLINTH_URL: plinthUrl,
        PLINTH_API_KEY: site.account.admin.apiKey,
        PLINTH_DEPLOYMENT_ID: String(site.deploymentId),
        PORT: String(port),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let said = '';
    await new Promise<void>((resolve, reject) => {
      example!.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('Dashboard: ')) resolve();
      });
      example!.on('exit', (code) => reject(new Error(`the example exited (${code}): ${said}`)));
    });
    expect(said).toContain(`Host page: http://127.0.0.1:${port}/?user=ann`);
    exampleUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(() => {
    example?.kill();
  });

  it('the example host page embeds the demo dashboard: ann and bob of two tenants see their own rows; a cell click reaches the host', async () => {
    const ann = await dashboardOf(await browser.newPage(), 'ann');
    expect(await ann.textContent('h1')).toBe('Sales overview');
    expect(await segmentRows(ann)).toEqual([['USA', 'consumer']]);
    const bob = await dashboardOf(await browser.newPage(), 'bob');
    expect(await segmentRows(bob)).toEqual([['France', 'corporate']]);

    // The example logs the element's events: a click on a table cell is a drill-down on that cell's member and value.
    await bob.click('[data-widget-id="segments"] td[data-member="my_sales.customers_country"]');
    const host = bob.page();
    await host.waitForFunction(() => /plinth-drill-down /.test((globalThis as any).document.getElementById('log').textContent));
    const line = (await host.textContent('#log'))!.split('\n').find((l) => l.startsWith('plinth-drill-down '))!;
    expect(JSON.parse(line.slice('plinth-drill-down '.length))).toMatchObject({
      member: 'my_sales.customers_country',
      value: 'France',
      widgetId: 'segments',
    });
  });
});
