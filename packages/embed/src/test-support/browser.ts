import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); PLINTH_CHROMIUM names another build. */
export const CHROMIUM_PATH = process.env.PLINTH_CHROMIUM ?? '/usr/bin/chromium';

/** A headless Chromium for one test file; each test opens its own context, so tests share no state. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
}
