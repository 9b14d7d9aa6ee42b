import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * Where a pool's threads load their code from. `built`: the compiled scripts under dist/ and the
 * built engine package, as a server runs. `sources`: the TypeScript sources through tsx and the
 * engine's sources, for code that runs as TypeScript outside a test run that has built dist/
 * (benchmarks, and test-only tasks, which never ship).
 */
export type ScriptSource = 'built' | 'sources';

/**
 * The source a pool defined in `poolUrl` uses unless told: the build when the pool itself runs
 * from dist/, or when the test run has brought dist/ up to date (PLINTH_TEST_BUILT, set by the
 * test set-up after `tsc -b`): compiling the engine through tsx cost every thread seconds.
 */
export function defaultSource(poolUrl: string): ScriptSource {
  return !poolUrl.endsWith('.ts') || process.env.PLINTH_TEST_BUILT === '1' ? 'built' : 'sources';
}

/** The URL of script `name` (no extension) beside the module at `moduleUrl`, for `source`. */
export function scriptUrl(moduleUrl: string, name: string, source: ScriptSource): string {
  if (source === 'sources') return new URL(`./${name}.ts`, moduleUrl).href;
  const built = moduleUrl.endsWith('.ts') ? moduleUrl.replace('/packages/server/src/', '/packages/server/dist/') : moduleUrl;
  return new URL(`./${name}.js`, built).href;
}

/** The engine's specifier for task scripts (engine.ts): the built package, or its sources beside the server's. */
function semanticSpecifier(poolUrl: string, source: ScriptSource): string {
  return source === 'built' ? '@plinth/semantic' : new URL('../../../semantic/src/index.ts', poolUrl).href;
}

/** What `new Worker(…)` takes to start the thread script `thread` (beside `poolUrl`) from `source`. */
export function threadEntry(poolUrl: string, source: ScriptSource): { script: string | URL; options: WorkerOptions } {
  const workerData = { semantic: semanticSpecifier(poolUrl, source) };
  if (source === 'built') return { script: new URL(scriptUrl(poolUrl, 'thread', 'built')), options: { workerData } };
  // A worker's execArgv cannot load tsx's hooks on Node 20, so a small bootstrap registers them first.
  const tsx = pathToFileURL(createRequire(poolUrl).resolve('tsx/esm/api')).href;
  const entry = scriptUrl(poolUrl, 'thread', 'sources');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`;
  return { script: bootstrap, options: { eval: true, workerData } };
}
