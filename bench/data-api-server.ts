/**
 * The data API benchmark's servers (bench/data-api.ts): a Plinth server process with
 * bench/count-executions.mjs preloaded, the sample model deployed to it through the API, and the
 * data API requests the benchmark makes besides its load runs.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleModelFiles, type Query } from '@plinth/semantic';
import { run } from '../packages/cli/src/run.js';
import type { IO } from '../packages/cli/src/core/io.js';
import { spawnServer, type ChildServer } from './lib.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'packages/server/dist/main.js');
const COUNTER = ['--import', new URL('./count-executions.mjs', import.meta.url).href];
/** More node flags for the servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a request's time goes. */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
export const KEY = `sk-${'b'.repeat(40)}`;

/** What bench/count-executions.mjs counted in a server since it started. */
export interface Counts {
  warehouse: number;
  store: number;
  storeStatements: Record<string, number>;
}

export interface Plinth extends ChildServer {
  base: string;
  counts(): Promise<Counts>;
  executions(): Promise<number>;
}

/** A Plinth server on the benchmark's data dir, with the execution counter preloaded. */
export async function plinth(dataDir: string, env: Record<string, string>): Promise<Plinth> {
  const counts = join(dataDir, 'executions');
  const server = await spawnServer(
    SERVER,
    {
      PLINTH_DATA_DIR: dataDir,
      PLINTH_BOOTSTRAP_API_KEY: KEY,
      PLINTH_DEMO: '0',
      BENCH_EXECUTIONS_FILE: counts,
      ...env,
    },
    '/readyz',
    [...COUNTER, ...NODE_ARGS],
  );
  const read = async (): Promise<Counts> => {
    rmSync(counts, { force: true });
    server.child.kill('SIGUSR2');
    for (let i = 0; i < 500; i++) {
      try {
        return JSON.parse(readFileSync(counts, 'utf8')) as Counts;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    throw new Error('the server did not report its counts');
  };
  return { ...server, base: `http://127.0.0.1:${server.port}`, counts: read, executions: async () => (await read()).warehouse };
}

/** `plinth deploy` of the sample model (or of `files`), run in this process, then the build awaited. */
export async function deploySample(server: Plinth, dataDir: string, files = sampleModelFiles()): Promise<number> {
  const headers = { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' };
  const created = await fetch(`${server.base}/api/v1/deployments`, { method: 'POST', headers, body: '{"name":"Demo"}' });
  const { id } = (await created.json()) as { id: number };
  const project = join(dataDir, 'project');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(project, path, '..'), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  const quiet = { write: () => true };
  const io: IO = {
    stdout: quiet,
    stderr: quiet,
    readStdin: async () => '',
    env: {
      PLINTH_API_URL: server.base,
      PLINTH_API_KEY: KEY,
      HOME: dataDir,
      XDG_CONFIG_HOME: dataDir,
      PLINTH_NO_TELEMETRY: '1',
      PLINTH_NO_UPDATE_CHECK: '1',
    },
    stdinIsTTY: false,
    promptSecret: async () => '',
    stdoutIsTTY: false,
    stderrIsTTY: false,
    platform: process.platform,
    homedir: dataDir,
    background: () => {},
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  const code = await run(['deploy', String(id), '--directory', project], io);
  if (code !== 0) throw new Error(`plinth deploy exited ${code}`);
  for (let i = 0; i < 1200; i++) {
    const status = (await (await fetch(`${server.base}/api/v1/deployments/${id}/build-status`, { headers })).json()) as { status?: string };
    if (status.status !== 'building' && status.status !== 'queued') return id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the sample model did not build within a minute');
}

export async function tokenOf(server: Plinth, id: number): Promise<string> {
  const headers = { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' };
  const response = await fetch(`${server.base}/api/v1/deployments/${id}/token`, { method: 'POST', headers, body: '{}' });
  const { cubeApiToken } = (await response.json()) as { cubeApiToken?: string };
  if (!cubeApiToken) throw new Error(`deploymentToken answered ${response.status}`);
  return cubeApiToken;
}

export const loadPath = (id: number, query: Query) => `/d/${id}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`;

export async function fetchLoad(server: Plinth, id: number, token: string, query: Query): Promise<{ data?: unknown[]; error?: string }> {
  return (await fetch(`${server.base}${loadPath(id, query)}`, { headers: { authorization: token } })).json() as Promise<{
    data?: unknown[];
    error?: string;
  }>;
}

/** 100 identical loads sent at once: how many answered with data, and the warehouse executions they caused. */
export async function burst(server: Plinth, id: number, token: string, query: Query): Promise<{ answered: number; executions: number }> {
  const before = await server.executions();
  const answers = await Promise.all(Array.from({ length: 100 }, () => fetchLoad(server, id, token, query)));
  return { answered: answers.filter((answer) => Array.isArray(answer.data)).length, executions: (await server.executions()) - before };
}
