#!/usr/bin/env node
/* global fetch */
// A customer's product that embeds a Plinth dashboard with <plinth-dashboard>: it serves its own page
// on its own origin and, per page view, mints an embed session for the signed-in user with its
// server-side API key. Here "signed in" is ?user=ann or ?user=bob: two users of two embed tenants,
// whose rows differ under the demo's my_sales policies (country attribute, segment in the security context).
// No dependencies: node examples/embed-host/server.mjs (see README.md beside this file). Against `npm start`'s
// demo it needs no setting: it finds the demo's "Sales overview" dashboard and the admin key of this checkout.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PLINTH_URL = (process.env.PLINTH_URL ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
const API_KEY = process.env.PLINTH_API_KEY ?? keyFromBootstrap();
const DEPLOYMENT_ID = Number(process.env.PLINTH_DEPLOYMENT_ID ?? 1);
const SDK_URL = process.env.PLINTH_SDK_URL ?? `${PLINTH_URL}/embed/sdk.js`;
const PORT = Number(process.env.PORT ?? 4100);
/** The demo's published dashboard (npm start creates it with deployment 1), shown when PLINTH_DASHBOARD_ID is unset. */
const DEMO_DASHBOARD = 'Sales overview';

/** The first start of `npm start` in this checkout saves its admin key here. */
function keyFromBootstrap() {
  const file = fileURLToPath(new URL('../../.plinth/bootstrap.json', import.meta.url));
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).apiKey : undefined;
}

/** Who each example user is to Plinth: what your product knows about its signed-in user. */
const USERS = {
  ann: {
    name: 'Ann (Acme, USA, consumer)',
    session: {
      externalId: 'ann@acme.example',
      email: 'ann@acme.example',
      userProfile: { displayName: 'Ann Archer' },
      embedTenantName: 'acme-corp',
      userAttributes: [{ name: 'country', value: 'USA' }],
      securityContext: { segment: 'consumer' },
    },
  },
  bob: {
    name: 'Bob (Globex, France, corporate)',
    session: {
      externalId: 'bob@globex.example',
      email: 'bob@globex.example',
      userProfile: { displayName: 'Bob Bernard', picture: 'https://globex.example/no-such-avatar.png' },
      embedTenantName: 'globex-inc',
      userAttributes: [{ name: 'country', value: 'France' }],
      securityContext: { segment: 'corporate' },
    },
  },
};

/** Unset: the public id of the demo's dashboard, found at start through the API (getWorkbooks). */
let DASHBOARD_ID = process.env.PLINTH_DASHBOARD_ID ?? '';

async function plinth(method, path, body) {
  const response = await fetch(`${PLINTH_URL}${path}`, {
    method,
    // The API key stays on this server: the browser only ever sees the single-use session id.
    headers: { authorization: `Api-Key ${API_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const data = await response.json().catch(() => ({}));
  return { status: response.status, data };
}

/** The backend route of the README: one session per page view, for the signed-in user only. */
async function mintSession(user, kind) {
  const body = { deploymentId: DEPLOYMENT_ID, ...user.session };
  if (kind === 'dashboard') body.publicDashboardId = DASHBOARD_ID;
  const { status, data } = await plinth('POST', '/api/v1/embed/generate-session', body);
  if (status !== 200) return { status: 502, body: { error: `Plinth answered ${status}: ${data.message ?? JSON.stringify(data)}` } };
  return { status: 200, body: { sessionId: data.sessionId } };
}

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(userKey, kind) {
  const links = Object.entries(USERS)
    .map(([key, u]) => `<a href="/?user=${key}&page=${kind}"${key === userKey ? ' aria-current="page"' : ''}>${escape(u.name)}</a>`)
    .join(' · ');
  const target = kind === 'chat' ? 'kind="chat"' : `public-id="${escape(DASHBOARD_ID)}"`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme analytics</title>
<style>body{font:15px system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px}
[aria-current]{font-weight:bold}#log{font:12px monospace;white-space:pre-wrap;background:#f4f4f4;padding:8px;max-height:200px;overflow:auto}</style>
<script type="module" src="${escape(SDK_URL)}"></script>
</head><body>
<h1>Acme analytics</h1>
<p>Signed in as: ${links} · <a href="/?user=${userKey}&page=${kind === 'chat' ? 'dashboard' : 'chat'}">${kind === 'chat' ? 'Dashboard' : 'Chat'}</a></p>
<p><button id="completed">Only completed orders</button> <button id="dark">Dark theme</button> <button id="refresh">Refresh</button></p>
<plinth-dashboard id="dashboard" base-url="${escape(PLINTH_URL)}" ${target} hide-back-button></plinth-dashboard>
<h2>Events</h2><div id="log" role="log"></div>
<script type="module">
const dashboard = document.getElementById('dashboard');
const log = (line) => (document.getElementById('log').textContent += line + '\\n');
for (const name of ['plinth-loaded', 'plinth-error', 'plinth-filter-changed', 'plinth-drill-down']) {
  dashboard.addEventListener(name, (event) => log(name + ' ' + JSON.stringify(event.detail)));
}
document.getElementById('completed').onclick = () => dashboard.setFilters({ 'my_sales.orders_status': 'completed' });
document.getElementById('dark').onclick = () => dashboard.setTheme('dark');
document.getElementById('refresh').onclick = () => dashboard.refresh();
// Your backend knows who is signed in (here: the user in the URL) and mints the session.
const response = await fetch('/embed-session?user=${userKey}&page=${kind}', { method: 'POST' });
const answer = await response.json();
if (answer.sessionId) dashboard.setAttribute('session', answer.sessionId);
else log('could not start the session: ' + answer.error);
</script>
</body></html>`;
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  const userKey = Object.hasOwn(USERS, url.searchParams.get('user') ?? '') ? url.searchParams.get('user') : 'ann';
  const kind = url.searchParams.get('page') === 'chat' || !DASHBOARD_ID ? 'chat' : 'dashboard';
  const send = (status, type, body) => response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
  try {
    if (request.method === 'GET' && url.pathname === '/') return send(200, 'text/html; charset=utf-8', page(userKey, kind));
    if (request.method === 'POST' && url.pathname === '/embed-session') {
      const minted = await mintSession(USERS[userKey], kind);
      return send(minted.status, 'application/json', JSON.stringify(minted.body));
    }
    send(404, 'text/plain', 'not found');
  } catch (error) {
    send(502, 'application/json', JSON.stringify({ error: `Plinth is unreachable at ${PLINTH_URL}: ${error.message}` }));
  }
});

if (!API_KEY) {
  console.error('Set PLINTH_API_KEY (an API key of the Plinth account), or run `npm start` once in this checkout.');
  process.exit(1);
}
/** The published dashboard of the workbook named DEMO_DASHBOARD in the deployment, if there is one. */
async function demoDashboardId() {
  const { status, data } = await plinth('GET', `/api/v1/deployments/${DEPLOYMENT_ID}/workbooks`);
  if (status !== 200) throw new Error(`Plinth answered ${status} listing the workbooks: ${data.message ?? JSON.stringify(data)}`);
  return data.items.find((workbook) => workbook.name === DEMO_DASHBOARD && workbook.publishedDashboard)?.publishedDashboard.publicId ?? '';
}

if (!DASHBOARD_ID) {
  try {
    DASHBOARD_ID = await demoDashboardId();
  } catch (error) {
    console.error(`Could not find the demo dashboard at ${PLINTH_URL} (is \`npm start\` running?): ${error.message}`);
    process.exit(1);
  }
}
server.listen(PORT, '127.0.0.1', () => {
  console.error(`Host page: http://127.0.0.1:${PORT}/?user=ann and http://127.0.0.1:${PORT}/?user=bob (Plinth: ${PLINTH_URL}).`);
  if (!DASHBOARD_ID)
    console.error(
      `No dashboard "${DEMO_DASHBOARD}" in deployment ${DEPLOYMENT_ID} and PLINTH_DASHBOARD_ID is unset: showing the analytics chat.`,
    );
  else console.error(`Dashboard: ${DASHBOARD_ID}.`);
});
