import { TaskFailedError, workerPool, workerTask, type WorkerPool } from '../../workers/index.js';
import type { CompileSummary } from './public.js';

/** A whole model compiles in well under this; past it the thread is stuck and is replaced. */
export const COMPILE_TIMEOUT_MS = 120_000;

/** What builds and validate compile with: a summary of the model, which itself stays in the thread. */
export const compileTask = workerTask<typeof import('./compile-task.js').compileSummary>({
  name: 'builds.compile',
  moduleUrl: import.meta.url,
  script: 'compile-task',
  exportName: 'compileSummary',
  timeoutMs: COMPILE_TIMEOUT_MS,
});

/**
 * Compiles a files map on the process's worker pool. The model's own errors are part of the
 * summary; what fails here is the compiler itself (it threw, its thread died or overran).
 */
export async function compileFiles(files: ReadonlyMap<string, string>, pool: WorkerPool = workerPool): Promise<CompileSummary> {
  try {
    return await pool.run(compileTask, [...files]);
  } catch (error) {
    if (error instanceof TaskFailedError) throw new Error(`The compiler failed: ${error.message}`);
    throw error;
  }
}
