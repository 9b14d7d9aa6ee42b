import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The element's events, in the order the host page received them (`window.plinthEvents`). */
export const SDK_EVENTS = [
  'plinth-ready',
  'plinth-loaded',
  'plinth-error',
  'plinth-filter-changed',
  'plinth-drill-down',
  'plinth-resize',
] as const;

export interface SdkHostPage {
  /**
   * A host page on 127.0.0.1 (another origin than the account's host) that loads the SDK from
   * `{base}/embed/sdk.js` and shows `<plinth-dashboard id="dashboard" base-url=base public-id=…>`,
   * without a session: the test sets it, as the README's page does once its backend minted one.
   */
  url(base: string, publicId: string): string;
  close(): Promise<void>;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A customer's page embedding a dashboard with the SDK the Plinth server serves, recording every event. */
export async function startSdkHostPage(): Promise<SdkHostPage> {
  const server: Server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams;
    const base = escape(query.get('base') ?? '');
    const publicId = escape(query.get('publicId') ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<script type="module" src="${base}/embed/sdk.js"></script></head>
<body style="margin:0"><h1>Acme</h1>
<plinth-dashboard id="dashboard" base-url="${base}" public-id="${publicId}" hide-back-button></plinth-dashboard>
<p id="after">After the dashboard</p>
<script>
window.plinthEvents = [];
const dashboard = document.getElementById('dashboard');
for (const name of ${JSON.stringify(SDK_EVENTS)}) {
  dashboard.addEventListener(name, (event) => window.plinthEvents.push({ type: name, detail: event.detail }));
}
</script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (base, publicId) => `http://127.0.0.1:${port}/?${new URLSearchParams({ base, publicId }).toString()}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
