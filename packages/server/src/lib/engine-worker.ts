import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread that loads the semantic engine: the script `name` (no extension) next to
 * `moduleUrl`, the `import.meta.url` of a file in `src/modules/<module>/`. Under vitest that file
 * runs as TypeScript, so the thread runs the script through tsx with the engine's sources, as the
 * tests do; from dist it runs the compiled script and the built package. The script reads the
 * engine's specifier from `workerData.semantic`. A test run that has brought dist/ up to date
 * (PLINTH_TEST_BUILT, set by the test set-up after `tsc -b`) starts the built script instead:
 * compiling the engine through tsx cost every thread seconds.
 */
export function startEngineWorker(moduleUrl: string, name: string): Worker {
  if (!moduleUrl.endsWith('.ts') || process.env.PLINTH_TEST_BUILT === '1') {
    const url = moduleUrl.endsWith('.ts') ? moduleUrl.replace('/packages/server/src/', '/packages/server/dist/') : moduleUrl;
    return new Worker(new URL(`./${name}.js`, url), { workerData: { semantic: '@plinth/semantic' } });
  }
  // A worker's execArgv cannot load tsx's hooks on Node 20, so a small bootstrap registers them first.
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx/esm/api')).href;
  const entry = new URL(`./${name}.ts`, moduleUrl).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: { semantic: new URL('../../../../semantic/src/index.ts', moduleUrl).href } });
}

/**
 * How long an engine thread may sit idle before it ends. Each holds an isolate with the engine
 * loaded (some 20 MiB) that most of a server's life has no use for; starting another costs about
 * 100 ms on the next compile, and compiles come in bursts (a deploy's build, a new build's first
 * queries), which one thread still serves.
 */
export const ENGINE_THREAD_IDLE_MS = 10_000;

/** Calls `onIdle` once `ms` have passed since `idle()` without a `busy()` in between. */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  busy(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  idle(): void {
    this.busy();
    // Never what keeps a process alive.
    this.timer = setTimeout(this.onIdle, this.ms).unref();
  }
}
