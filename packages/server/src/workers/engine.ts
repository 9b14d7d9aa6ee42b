import { workerData } from 'node:worker_threads';

type Semantic = typeof import('@plinth/semantic');

let loaded: Promise<Semantic> | undefined;

/**
 * The semantic engine, for task scripts running on a pool thread: the built package from dist/,
 * its sources when the thread runs TypeScript (scripts.ts), so a test of the sources never runs a
 * stale build of the engine. Loaded once per thread, on its first task that needs it.
 */
export function semanticEngine(): Promise<Semantic> {
  loaded ??= import((workerData as { semantic: string }).semantic) as Promise<Semantic>;
  return loaded;
}
