/**
 * The embedded dashboard page in headless Chromium, against the built server on a fresh store: the
 * time from navigation to the first chart drawn with data, beside the time of the data API calls
 * the page made, and the gzipped size of the JavaScript the page loads.
 *
 * The server starts on an empty data dir (PGlite), so its first start creates the demo deployment
 * and its published "Sales overview" dashboard. Each run mints a session for an embedded user of
 * the demo (outside the timer), opens the page in a fresh browser context (no cache: every run
 * downloads the page's JavaScript, as a first visit does) and reads the browser's own clocks:
 * `performance.now()` when the first chart with data appears (an ECharts chart marked drawn, or a
 * KPI number), and the resource timing of every request. WARMUP runs first, unmeasured.
 *
 *   npm run bench:embed-page   (BENCH_RUNS=n, default 10; BENCH_WARMUP=n, default 3;
 *                               --no-build skips `npm run build`; --no-write prints only)
 */
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { freePort, median } from './lib.js';
import { ROOT } from './start-run.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const WRITE = !process.argv.includes('--no-write');
const CHROMIUM = '/usr/bin/chromium';
const BUDGET_JS_KB = 250;
const BUDGET_FIRST_CHART_MS = 1500;

if (!process.argv.includes('--no-build')) execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const loadBefore = uptime();

// The server, as `npm start` runs it, on a store of its own.
const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-page-'));
const port = await freePort();
const child = spawn(process.execPath, [join(ROOT, 'packages/server/dist/main.js')], {
  env: { PATH: process.env.PATH!, PORT: String(port), HOST: '127.0.0.1', PLINTH_DATA_DIR: join(dataDir, '.plinth') },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
const publicId = await new Promise<string>((resolve, reject) => {
  const seen = (chunk: Buffer) => {
    output += chunk;
    const match = /\/embed\/dashboard\/([^?\s]+)\?session=/.exec(output);
    if (match && output.includes('Plinth is ready at ')) resolve(match[1]!);
  };
  child.stdout!.on('data', seen);
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  child.on('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`)));
});
const base = `http://127.0.0.1:${port}`;
const { apiKey } = JSON.parse(readFileSync(join(dataDir, '.plinth', 'bootstrap.json'), 'utf8')) as { apiKey: string };

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Api-Key ${apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const deployments = await api<{ items: Array<{ id: number; name: string }> }>('GET', '/api/v1/deployments');
const deploymentId = deployments.items[0]!.id;
/** A session of an embedded user of the demo (its policy reads `country` and `securityContext.segment`). */
const session = async (n: number) =>
  (
    await api<{ sessionId: string }>('POST', '/api/v1/embed/generate-session', {
      deploymentId,
      externalId: `bench-${n}`,
      userAttributes: [{ name: 'country', value: 'USA' }],
      securityContext: { segment: 'consumer' },
    })
  ).sessionId;

interface Run {
  firstChartMs: number;
  loadedMs: number;
  dataCalls: Array<{ start: number; duration: number }>;
  scripts: string[];
  /** When the last script, and the page's own API calls (session exchange, dashboard, context), had answered. */
  scriptsEnd: number;
  apiEnd: number;
}

/** Runs in the page (a string: the bench has no DOM types): records when the first chart with data appears. */
const WATCH = `(() => {
  const seen = () => document.querySelector('[data-drawn="true"], .kpi-value');
  const mark = () => { if (!window.__firstChart && seen()) window.__firstChart = performance.now(); };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn'] });
})();`;

async function visit(browser: Browser, n: number): Promise<Run> {
  const url = `${base}/embed/dashboard/${publicId}?session=${await session(n)}`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(WATCH);
    await page.goto(url);
    await page.waitForSelector('html[data-dashboard-loaded="true"]', { timeout: 30_000 });
    return await page.evaluate<Run>(`(() => {
      const resources = performance.getEntriesByType('resource');
      return {
        firstChartMs: window.__firstChart,
        loadedMs: performance.now(),
        dataCalls: resources.filter((r) => r.name.includes('/cubejs-api/v1/load')).map((r) => ({ start: r.startTime, duration: r.duration })),
        scripts: resources.filter((r) => r.name.endsWith('.js')).map((r) => new URL(r.name).pathname),
        scriptsEnd: Math.max(...resources.filter((r) => r.name.endsWith('.js')).map((r) => r.responseEnd)),
        apiEnd: Math.max(...resources.filter((r) => r.name.includes('/api/v1/embed/')).map((r) => r.responseEnd)),
      };
    })()`);
  } finally {
    await context.close();
  }
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const chromiumVersion = browser.version();
const runs: Run[] = [];
try {
  for (let i = 0; i < WARMUP; i++) await visit(browser, i);
  for (let i = 0; i < RUNS; i++) {
    const run = await visit(browser, WARMUP + i);
    runs.push(run);
    process.stderr.write(
      `run ${i + 1}: first chart ${run.firstChartMs.toFixed(0)} ms, all drawn ${run.loadedMs.toFixed(0)} ms, ${run.dataCalls.length} data API calls\n`,
    );
  }
} finally {
  await browser.close();
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  rmSync(dataDir, { recursive: true, force: true });
}

// Every chunk any run loaded (the shell's entry, the page's lazy chunk, ECharts), gzipped at the default level.
const scripts = [...new Set(runs.flatMap((r) => r.scripts))].sort();
// The server is stopped: the same files are in the build's output.
const built = scripts.map((path) => {
  const body = readFileSync(join(ROOT, 'packages/web/dist', path));
  return { path, raw: body.length, gzip: gzipSync(body).length };
});
const jsGzipKb = built.reduce((sum, s) => sum + s.gzip, 0) / 1024;
const jsRawKb = built.reduce((sum, s) => sum + s.raw, 0) / 1024;

const firstChart = median(runs.map((r) => r.firstChartMs));
const loaded = median(runs.map((r) => r.loadedMs));
const callsPerRun = median(runs.map((r) => r.dataCalls.length));
const callDuration = median(runs.flatMap((r) => r.dataCalls.map((c) => c.duration)));
const firstCallStart = median(runs.map((r) => Math.min(...r.dataCalls.map((c) => c.start))));
const lastCallEnd = median(runs.map((r) => Math.max(...r.dataCalls.map((c) => c.start + c.duration))));
const max = (values: number[]) => Math.max(...values);
const loadAfter = uptime();
const pass = (ok: boolean) => (ok ? 'within budget' : '**over budget**');

const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, Chromium ${chromiumVersion}`;
const section = `
## Embedded dashboard page (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)

Command: \`npm run bench:embed-page\` (BENCH_RUNS=${RUNS}, BENCH_WARMUP=${WARMUP}). Machine: ${machine}. Load: \`${loadBefore}\` before, \`${loadAfter}\` after (the machine is shared; load average over 1, 5, 15 min).

Method: the built server (\`packages/server/dist/main.js\`) on a fresh PGlite data dir: its first start creates the demo deployment and the published "Sales overview" dashboard (${publicId}). ${WARMUP} unmeasured visits warm it, then ${RUNS} visits, each with a new session (minted outside the timer) of an embedded user of the demo (country USA, segment consumer), in a fresh headless Chromium context (no cache), at 1280×900. Times are the browser's own (\`performance.now()\`, from navigation start): "first chart" is when the first chart with data is on screen (an ECharts chart drawn, or a KPI number), "all drawn" when the page sets \`data-dashboard-loaded\` (every chart on screen finished). Data API calls are the page's \`/cubejs-api/v1/load\` requests as resource timing saw them.

| Figure | Median | Worst of ${RUNS} | Budget |
| --- | --- | --- | --- |
| First chart drawn with data | ${firstChart.toFixed(0)} ms | ${max(runs.map((r) => r.firstChartMs)).toFixed(0)} ms | < ${BUDGET_FIRST_CHART_MS} ms: ${pass(firstChart < BUDGET_FIRST_CHART_MS)} |
| Every chart drawn (\`data-dashboard-loaded\`) | ${loaded.toFixed(0)} ms | ${max(runs.map((r) => r.loadedMs)).toFixed(0)} ms | |
| Data API calls per visit | ${callsPerRun} | ${max(runs.map((r) => r.dataCalls.length))} | |
| One data API call (request to last byte) | ${callDuration.toFixed(0)} ms | ${max(runs.flatMap((r) => r.dataCalls.map((c) => c.duration))).toFixed(0)} ms | |
| Last script loaded / page's API calls answered (session exchange, getDashboard, getEmbedContext) | ${median(runs.map((r) => r.scriptsEnd)).toFixed(0)} ms / ${median(runs.map((r) => r.apiEnd)).toFixed(0)} ms | | |
| First data API call sent / last answered | ${firstCallStart.toFixed(0)} ms / ${lastCallEnd.toFixed(0)} ms | | |
| JavaScript of the page, gzipped (${built.length} chunks, ${jsRawKb.toFixed(0)} KB raw) | ${jsGzipKb.toFixed(1)} KB | | < ${BUDGET_JS_KB} KB: ${pass(jsGzipKb < BUDGET_JS_KB)} |

Chunks: ${built.map((s) => `\`${s.path}\` ${(s.gzip / 1024).toFixed(1)} KB`).join(', ')}.
`;
process.stdout.write(section);
if (WRITE) appendFileSync(join(ROOT, 'bench/RESULTS.md'), section);
