import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { BUILT } from './built.js';

/** A port nothing listens on now (the kernel's choice), for a process to bind. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything it wrote so far, stdout and stderr interleaved as they came. */
  output: () => string;
  /** Resolves when its output matches, or when it exits: the caller looks at which. */
  waitFor: (pattern: RegExp | string) => Promise<void>;
  exited: Promise<number | null>;
}

export const READY_LINE = 'Plinth is ready at ';

/**
 * Starts `plinth-server` (the build of this checkout) as a real process on 127.0.0.1, with
 * nothing of the test's environment but PATH and `env`, and waits for `until` in its output
 * (its ready line unless told otherwise) or for its exit. Every wait is on the process's own
 * output, never on the clock; the test's timeout bounds it.
 */
export async function startServerProcess(
  env: Record<string, string>,
  { until = READY_LINE, args = [] }: { until?: RegExp | string; args?: string[] } = {},
): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [BUILT.server, ...args], {
    env: { PATH: process.env.PATH!, PORT: port, HOST: '127.0.0.1', PLINTH_SQL_PORT: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk;
    for (const check of waiters) check();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const waitFor = (pattern: RegExp | string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (typeof pattern === 'string' ? output.includes(pattern) : pattern.test(output)) done();
      };
      const done = () => {
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      void exited.then(done);
      check();
    });
  await waitFor(until);
  return { child, port: Number(port), url: `http://127.0.0.1:${port}`, output: () => output, waitFor, exited };
}

/**
 * The server processes one test file starts, stopped together when it ends. A start whose process
 * exited instead of getting ready is an error carrying what it printed.
 */
export function serverProcesses() {
  const running: ServerProcess[] = [];
  return {
    async start(env: Record<string, string>, options: { until?: RegExp | string } = {}): Promise<ServerProcess> {
      const server = await startServerProcess(env, options);
      running.push(server);
      const { exitCode, signalCode } = server.child;
      // A process killed by a signal has no exit code: it exited all the same.
      if (exitCode !== null || signalCode !== null) {
        throw new Error(`plinth-server exited (${signalCode ?? `code ${exitCode}`}): ${server.output()}`);
      }
      return server;
    },
    async stopAll(): Promise<void> {
      for (const { child } of running) child.kill('SIGTERM');
      await Promise.all(running.splice(0).map(({ exited }) => exited));
    },
  };
}
