import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import pg from 'pg';

/** Shared plumbing for the HTTP benchmarks: free ports, child servers, load runs, machine facts. */

const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database of its own on the benchmark's PostgreSQL (BENCH_PG_ADMIN_URL), made afresh; answers its URL. */
export async function freshPostgres(name: string): Promise<string> {
  const admin = new pg.Client(PG_ADMIN_URL);
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Spawns a server process and waits until `readyPath` answers; returns how long that took. */
export async function spawnServer(
  script: string,
  env: Record<string, string>,
  readyPath = '/readyz',
  nodeArgs: string[] = [],
): Promise<ChildServer & { readyMs: number }> {
  const port = Number(env.PORT ?? (await freePort()));
  const started = performance.now();
  // Servers of one benchmark run side by side, and each would take the SQL API's port 15432: off unless asked for.
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PLINTH_LOG_LEVEL: 'info', PLINTH_SQL_PORT: 'off', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}${readyPath}`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - started;
  return {
    child,
    port,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const run = (duration: number) => autocannon({ url, connections: options.connections, duration, headers: options.headers ?? {} });
  await run(2); // warm-up: JIT, connection pools, caches
  const result = await run(options.seconds);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * `load` with a path of its own for each request: request `k` (counted over the whole run) asks
 * for `pathOf(k)`, so a run can keep every request's cache key distinct.
 */
export async function loadPaths(
  base: string,
  pathOf: (k: number) => string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  let k = 0;
  const run = (duration: number) =>
    autocannon({
      url: base,
      connections: options.connections,
      duration,
      headers: options.headers ?? {},
      requests: [{ setupRequest: (request) => ({ ...request, path: pathOf(k++) }) }],
    });
  await run(2); // warm-up: JIT, connection pools, the model's compile
  const result = await run(options.seconds);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * The same figures for calls made in this process: `concurrency` loops each awaiting `call(k)`
 * (k counted over the run) for `seconds`, after a 2 s warm-up like `load`.
 */
export async function loadCalls(
  call: (k: number) => Promise<unknown>,
  options: { concurrency: number; seconds: number },
): Promise<LoadResult> {
  let k = 0;
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    let errors = 0;
    const end = performance.now() + seconds * 1000;
    const loop = async () => {
      while (performance.now() < end) {
        const started = performance.now();
        try {
          await call(k++);
          latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: options.concurrency }, loop));
    return { latencies, errors, seconds: (performance.now() - started) / 1000 };
  };
  await run(2);
  const { latencies, errors, seconds } = await run(options.seconds);
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { rps: Math.round(latencies.length / seconds), p50: at(0.5), p99: at(0.99), errors, non2xx: 0 };
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  let pg = 'n/a';
  try {
    pg = execFileSync('psql', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    // no psql on this machine
  }
  return `${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${pg}`;
}

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
