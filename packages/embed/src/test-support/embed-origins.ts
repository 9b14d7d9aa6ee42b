import { vi } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { bundle } from './bundles.js';
import { serveOrigin, type Origin } from './origins.js';

/**
 * Three local origins for the browser tests: `host` (a customer's page with <plinth-dashboard>),
 * `plinth` (serves the SDK and a stand-in embed page on connectHost) and `third` (anyone else).
 * Each page also holds frames that must not be able to talk to the SDK: a third-origin frame and a
 * frame of the same origin as the real peer, but another window.
 */
export interface EmbedOrigins {
  host: string;
  plinth: string;
  third: string;
  /** The host page URL with these attributes on its <plinth-dashboard id="dash">. */
  hostPage(attributes: Record<string, string>): string;
  reactPage(): string;
  close(): Promise<void>;
}

const BLANK = '<!doctype html><meta charset="utf-8"><title>blank</title>';
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const frame = (name: string, src: string) =>
  `<iframe name="${name}" src="${src}" style="position:absolute;width:1px;height:1px;border:0"></iframe>`;

/** Records every plinth-* DOM event and every `{marker}` message, in order, before the SDK loads. */
const RECORDER = `<script>
window.events = []; window.markers = [];
for (const name of ['plinth-ready','plinth-loaded','plinth-error','plinth-filter-changed','plinth-drill-down','plinth-resize'])
  document.addEventListener(name, (e) => window.events.push({ type: e.type, detail: e.detail }));
window.addEventListener('message', (e) => { if (e.data && typeof e.data.marker === 'string') window.markers.push(e.data.marker); });
</script>`;

export async function startEmbedOrigins(): Promise<EmbedOrigins> {
  const code = await bundle();
  const servers: Origin[] = [];
  const origins = { host: '', plinth: '', third: '' };
  const js = (body: string, headers?: Record<string, string>) => ({ body, type: 'text/javascript', headers });

  const third = await serveOrigin({ '/attacker.html': () => ({ body: BLANK }) });
  servers.push(third);
  origins.third = third.origin;

  const plinth = await serveOrigin({
    // A host page loads the SDK cross-origin as a module script, which needs CORS.
    '/embed/sdk.js': () => js(code.sdk, { 'access-control-allow-origin': '*' }),
    '/page.js': () => js(code.page),
    '/other.html': () => ({ body: BLANK }),
    '/embed/dashboard/*': () => ({
      body: `<!doctype html><html><head><meta charset="utf-8"><title>Stand-in</title></head>
<body style="margin:0"><div id="content" style="height:300px">dashboard</div>
${frame('nested-attacker', `${origins.third}/attacker.html`)}${frame('nested-sibling', `${origins.host}/sibling.html`)}
<script type="module" src="/page.js"></script></body></html>`,
    }),
  });
  servers.push(plinth);
  origins.plinth = plinth.origin;

  const host = await serveOrigin({
    '/sibling.html': () => ({ body: BLANK }),
    '/react-host.js': () => js(code.reactHost),
    '/react.html': () => ({
      body: `<!doctype html><meta charset="utf-8"><body style="margin:0"><div id="root"></div><script type="module" src="/react-host.js"></script>`,
    }),
    '/host.html': (url) => {
      const attributes = Object.entries(JSON.parse(url.searchParams.get('a') ?? '{}') as Record<string, string>)
        .map(([name, value]) => ` ${name}="${escape(value)}"`)
        .join('');
      return {
        body: `<!doctype html><html><head><meta charset="utf-8"><title>Host</title>${RECORDER}
<script type="module" src="${origins.plinth}/embed/sdk.js"></script></head>
<body style="margin:0"><plinth-dashboard id="dash"${attributes}></plinth-dashboard>
${frame('attacker', `${origins.third}/attacker.html`)}${frame('other-window', `${origins.plinth}/other.html`)}</body></html>`,
      };
    },
  });
  servers.push(host);
  origins.host = host.origin;

  return {
    ...origins,
    hostPage: (attributes) =>
      `${origins.host}/host.html?a=${encodeURIComponent(JSON.stringify({ 'base-url': origins.plinth, ...attributes }))}`,
    reactPage: () => `${origins.host}/react.html?base=${encodeURIComponent(origins.plinth)}`,
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

/** The first frame that matches, once it has loaded. */
export async function frameWhere(page: Page, match: (frame: Frame) => boolean): Promise<Frame> {
  const found = await vi.waitFor(
    () => {
      const frame = page.frames().find(match);
      if (!frame) throw new Error('no such frame yet');
      return frame;
    },
    { timeout: 15_000, interval: 20 },
  );
  await found.waitForLoadState('load');
  return found;
}

export const frameNamed = (page: Page, name: string) => frameWhere(page, (f) => f.name() === name);

/** The stand-in embed page's frame whose URL starts so, once its bridge is connected. */
export async function embedFrame(page: Page, prefix: string): Promise<Frame> {
  const found = await frameWhere(page, (f) => f.url().startsWith(prefix));
  await found.waitForFunction(() => window.standIn !== undefined);
  return found;
}

/** What the host page's recorder (above) keeps. */
declare global {
  interface Window {
    events: { type: string; detail: any }[];
    markers: string[];
  }
}
