import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Frame, type Page } from 'playwright-core';

/**
 * Debian's Chromium (`PLINTH_CHROMIUM` names another build): the browser tests of every package
 * (packages/embed's too) drive it, never a browser build of their own (nothing downloads).
 */
export const CHROMIUM = process.env.PLINTH_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Chromium, headless. Test accounts' hosts (`acct-….plinth.test`) resolve to this machine, so a
 * page opens an account's host as a browser would, and a host page on 127.0.0.1 is another origin.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (or set PLINTH_CHROMIUM)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--host-resolver-rules=MAP *.plinth.test 127.0.0.1', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

export interface TestBrowser {
  /** A page in a fresh context (no cookies, storage or cache shared with another test). */
  newPage(options?: BrowserContextOptions): Promise<Page>;
}

/**
 * One browser for the test file, a context per test, closed after it: call at the top of a file
 * (or a describe block). Starting Chromium costs about a second; a context costs little.
 */
export function useBrowser(): TestBrowser {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async newPage(options = {}) {
      if (!browser) throw new Error('useBrowser(): the browser starts in beforeAll');
      const context = await browser.newContext(options);
      contexts.push(context);
      return context.newPage();
    },
  };
}

const axeSource = () => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * axe-core's serious and critical violations of a page or frame. axe is injected through the
 * debugging protocol (page.evaluate), which the page's CSP does not govern.
 */
export async function seriousAxeViolations(target: Page | Frame): Promise<AxeViolation[]> {
  await target.evaluate(axeSource());
  return target.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context?: unknown, options?: unknown): Promise<any> } }).axe;
    // The page's document (this runs in the browser; the server's types have no DOM).
    const result = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return (result.violations as any[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n: any) => String(n.target)) }));
  });
}
