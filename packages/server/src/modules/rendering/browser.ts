import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { RenderError } from './errors.js';

/** Debian's Chromium, or the build PLINTH_CHROMIUM names (as the browser tests'), read at each launch. */
const chromiumPath = () => process.env.PLINTH_CHROMIUM ?? '/usr/bin/chromium';
/** A browser nobody rendered with for this long is closed; the next rendering starts another. */
const IDLE_MS = 60_000;

interface Held {
  browser: Promise<Browser>;
  pages: number;
  idle: NodeJS.Timeout | undefined;
}

/**
 * The process's browsers, one per address the renderer reaches its server at (one in practice):
 * launched on the first rendering, reused, closed when idle. Every host name resolves to that
 * address, so a page opens the account's own host as a viewer's browser would and reaches
 * nothing else. A browser that crashed or disconnected is forgotten, so the next rendering
 * launches a fresh one; the failure is the rendering's, never the process's.
 */
const held = new Map<string, Held>();

export async function withPage<T>(serverAddress: string, use: (page: Page) => Promise<T>): Promise<T> {
  const entry = hold(serverAddress);
  entry.pages++;
  clearTimeout(entry.idle);
  try {
    let browser: Browser;
    try {
      browser = await entry.browser;
    } catch (error) {
      if (held.get(serverAddress) === entry) held.delete(serverAddress);
      throw error;
    }
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      // The renderer's own style (hiding the viewer's avatar) goes in under the page's strict CSP.
      bypassCSP: true,
      reducedMotion: 'reduce',
    });
    try {
      return await use(await context.newPage());
    } finally {
      await context.close().catch(() => undefined);
    }
  } catch (error) {
    if (error instanceof RenderError) throw error;
    throw new RenderError(`The browser failed while rendering: ${(error as Error).message}`, true, { cause: error });
  } finally {
    entry.pages--;
    if (entry.pages === 0 && held.get(serverAddress) === entry) {
      entry.idle = setTimeout(() => void closeEntry(serverAddress, entry), IDLE_MS);
      entry.idle.unref();
    }
  }
}

function hold(serverAddress: string): Held {
  const existing = held.get(serverAddress);
  if (existing) return existing;
  const entry: Held = { browser: launch(serverAddress), pages: 0, idle: undefined };
  held.set(serverAddress, entry);
  entry.browser.then(
    (browser) => browser.on('disconnected', () => held.get(serverAddress) === entry && held.delete(serverAddress)),
    () => undefined,
  );
  return entry;
}

async function launch(serverAddress: string): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new RenderError(`Rendering needs Chromium at ${executablePath}: apt-get install -y chromium, or set PLINTH_CHROMIUM`, true);
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [`--host-resolver-rules=MAP * ${serverAddress}`, '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

async function closeEntry(serverAddress: string, entry: Held): Promise<void> {
  if (held.get(serverAddress) === entry) held.delete(serverAddress);
  await (await entry.browser.catch(() => undefined))?.close().catch(() => undefined);
}

/** Closes every browser of the process now (a stopping server, the end of a test file). */
export async function closeBrowsers(): Promise<void> {
  const entries = [...held.entries()];
  for (const [, entry] of entries) clearTimeout(entry.idle);
  await Promise.all(entries.map(([address, entry]) => closeEntry(address, entry)));
}
