import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './lib.js';

/** One start of the built server, as a newcomer runs it: spawned, read from its output, stopped. */

export const ROOT = new URL('..', import.meta.url).pathname;
const SERVER = join(ROOT, 'packages/server/dist/main.js');
const READY_LINE = 'Plinth is ready at ';
/** The demo's two counts, as main-demo.test.ts asks for them. */
const QUERY = encodeURIComponent(JSON.stringify({ measures: ['orders.count', 'line_items.count'] }));

export interface StartFigures {
  /** From spawn to the ready line on stdout. */
  readyMs: number;
  /** From spawn to the demo's first /load answering data, asked at the ready line (token minted on the way). */
  loadMs: number | undefined;
  /** Resident set once it stopped moving (after the first /load, when one was asked). */
  settledRssMiB: number;
  /** Resident set IDLE_S seconds after the last request: V8 shrinks its heap only after some idle time. */
  idleRssMiB: number;
  /** The most it was resident at any time (VmHWM). */
  peakRssMiB: number;
  threads: number;
}

/** Reads a field of /proc/<pid>/status in MiB (kB fields) or as a count. */
export function procStatus(pid: number, field: 'VmRSS' | 'VmHWM' | 'Threads'): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'));
  if (!match) throw new Error(`no ${field} for ${pid}`);
  return field === 'Threads' ? Number(match[1]) : Number(match[1]) / 1024;
}

/**
 * Waits until the process's RSS has moved less than 1 MiB over the last 3 s (at most `capMs`):
 * "idle" is what it holds once start-up's collections and background work are over.
 */
export async function settledRss(pid: number, capMs = 20_000): Promise<number> {
  const samples: number[] = [];
  const end = performance.now() + capMs;
  for (;;) {
    samples.push(procStatus(pid, 'VmRSS'));
    const recent = samples.slice(-13);
    if (recent.length === 13 && Math.max(...recent) - Math.min(...recent) < 1) return recent.at(-1)!;
    if (performance.now() > end) return samples.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Seconds from the last request (or the ready line) to the idle reading. */
export const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 60);

/** A bare `node` idling on a timer: what any Node process holds before it loads anything. */
export async function bareNodeRss(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rss = await settledRss(child.pid!, 5000);
  await stop(child);
  return rss;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Minted over the API with the data dir's bootstrap key, as `plinth deployments token 1` does. */
async function demoToken(url: string, dataDir: string): Promise<string> {
  const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { apiKey: string };
  const response = await fetch(`${url}/api/v1/deployments/1/token`, {
    method: 'POST',
    headers: { authorization: `Api-Key ${apiKey}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) throw new Error(`token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { cubeApiToken: string }).cubeApiToken;
}

/** Asks until the answer carries data ("Continue wait" is asked again, as a client does). */
async function firstLoad(url: string, token: string): Promise<void> {
  for (;;) {
    const response = await fetch(`${url}/d/1/cubejs-api/v1/load?query=${QUERY}`, { headers: { authorization: token } });
    const body = (await response.json()) as { data?: unknown[]; error?: string };
    if (response.ok && body.data?.length) return;
    if (body.error !== 'Continue wait') throw new Error(`load: ${response.status} ${JSON.stringify(body)}`);
  }
}

/**
 * Starts the server on `dataDir` (and `databaseUrl`, if any) and times its ready line; with `query`,
 * asks the demo's first /load at once and times it from the same spawn; then reads its RSS once it
 * settled and again after IDLE_S seconds without a request.
 */
export async function measureStart(dataDir: string, databaseUrl: string | undefined, query: boolean): Promise<StartFigures> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH!,
      PORT: String(port),
      HOST: '127.0.0.1',
      PLINTH_DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes(READY_LINE)) resolve(performance.now() - started);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output}`)));
  });
  try {
    const readyMs = await ready;
    let loadMs: number | undefined;
    if (query) {
      const url = `http://127.0.0.1:${port}`;
      await firstLoad(url, await demoToken(url, dataDir));
      loadMs = performance.now() - started;
    }
    const lastRequest = performance.now();
    const settledRssMiB = await settledRss(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastRequest + IDLE_S * 1000 - performance.now())));
    const idleRssMiB = await settledRss(child.pid!, 10_000);
    return {
      readyMs,
      loadMs,
      settledRssMiB,
      idleRssMiB,
      peakRssMiB: procStatus(child.pid!, 'VmHWM'),
      threads: procStatus(child.pid!, 'Threads'),
    };
  } finally {
    await stop(child);
  }
}
