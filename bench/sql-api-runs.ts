/**
 * The SQL API benchmark's measurements (bench/sql-api.ts): one query through each surface, the
 * latency rounds, the concurrent run and the server's resident set during a large result.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Query } from '@plinth/semantic';
import { loadPath } from './data-api-server.js';

/** A pushed-down SQL query and the semantic query the SQL API sends the data API for it. */
export interface BenchQuery {
  sql: string;
  query: Query;
}

export interface SqlLogin {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/** One way of asking a query; answers the rows it got. */
export type Surface = (q: BenchQuery) => Promise<number>;

export async function connect(login: SqlLogin): Promise<pg.Client> {
  const client = new pg.Client({ ...login, connectionTimeoutMillis: 30_000 });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** node-postgres sends a query without parameters with the simple protocol unless told `extended`. */
export const wire =
  (client: pg.Client, mode: 'simple' | 'extended'): Surface =>
  async ({ sql }) =>
    (await client.query({ text: sql, rowMode: 'array', ...(mode === 'extended' ? { queryMode: 'extended' } : {}) })).rows.length;

export const http =
  (base: string, deploymentId: number, token: string): Surface =>
  async ({ query }) => {
    const response = await fetch(`${base}${loadPath(deploymentId, query)}`, { headers: { authorization: token } });
    const body = (await response.json()) as { data?: unknown[]; error?: string };
    if (!response.ok || !body.data) throw new Error(`load answered ${response.status}: ${body.error}`);
    return body.data.length;
  };

export const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  count: number;
  /** The server's CPU time (user + system) per request, in ms, over a run of this surface alone. */
  cpuMs?: number;
}

/** A process's CPU seconds so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const summary = (times: number[]): Latency => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), count: sorted.length };
};

/**
 * Every query through every surface, `rounds` times, one request at a time: each query's surfaces
 * asked back to back in an order that turns each round, so a busy moment of a shared machine or a
 * warm page cache favours none of them. A first untimed pass warms what each surface warms. Then
 * the server's CPU time per request, each surface alone for as many requests.
 */
export async function latencies(
  pid: number,
  surfaces: Record<string, Surface>,
  queries: BenchQuery[],
  rounds: number,
): Promise<Record<string, Latency>> {
  const names = Object.keys(surfaces);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const q of queries) for (const name of names) await surfaces[name]!(q);
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length]!;
        const started = performance.now();
        await surfaces[name]!(q);
        times[name]!.push(performance.now() - started);
      }
    }
  }
  // Latency on a busy shared machine is mostly its other work; the server's CPU time per request is not.
  const cpu: Record<string, number> = {};
  for (const name of names) {
    const before = cpuSeconds(pid);
    for (let round = 0; round < rounds; round++) for (const q of queries) await surfaces[name]!(q);
    cpu[name] = ((cpuSeconds(pid) - before) * 1000) / (rounds * queries.length);
  }
  return Object.fromEntries(names.map((n) => [n, { ...summary(times[n]!), cpuMs: cpu[n] }]));
}

export interface Concurrent extends Latency {
  connections: number;
  seconds: number;
  queries: number;
  errors: number;
  firstError?: string;
  perSecond: number;
}

/** `connections` clients, each asking the queries in turn (simple and extended protocol alternately) for `seconds`. */
export async function concurrent(login: SqlLogin, queries: BenchQuery[], connections: number, seconds: number): Promise<Concurrent> {
  const clients = await Promise.all(Array.from({ length: connections }, () => connect(login)));
  const times: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    clients.map(async (client, c) => {
      const surfaces = [wire(client, 'simple'), wire(client, 'extended')];
      for (let k = c; performance.now() < end; k++) {
        const at = performance.now();
        try {
          await surfaces[k % 2]!(queries[k % queries.length]!);
          times.push(performance.now() - at);
        } catch (error) {
          errors++;
          firstError ??= (error as Error).message;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  const queriesRun = times.length + errors;
  return { ...summary(times), connections, seconds: elapsed, queries: queriesRun, errors, firstError, perSecond: queriesRun / elapsed };
}

/** A process's resident set in MiB, from /proc (`VmRSS`, or `VmHWM` for its peak since start). */
export function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? NaN) / 1024;
}

export interface Footprint {
  rows: number;
  ms: number;
  baselineMiB: number;
  peakMiB: number;
  error?: string;
}

/**
 * Runs `sql` with psql (a real client: it reads the rows as they come and writes them to a pipe
 * this process counts lines of) while sampling the server's VmRSS every 10 ms.
 */
export async function footprint(pid: number, login: SqlLogin, sql: string): Promise<Footprint> {
  const baselineMiB = rssMiB(pid);
  let peakMiB = baselineMiB;
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, rssMiB(pid))), 10);
  const started = performance.now();
  const conninfo = `host=${login.host} port=${login.port} dbname=${login.database} user=${login.user} sslmode=disable`;
  const child = spawn('psql', [conninfo, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    env: { ...process.env, PGPASSWORD: login.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let rows = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows++;
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const ms = performance.now() - started;
  clearInterval(sampler);
  peakMiB = Math.max(peakMiB, rssMiB(pid));
  return { rows, ms, baselineMiB, peakMiB, ...(code !== 0 ? { error: stderr.trim() || `psql exited ${code}` } : {}) };
}
