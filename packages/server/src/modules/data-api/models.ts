import type { DataModel } from '@plinth/semantic';
import { TaskFailedError, workerPool, workerTask, type WorkerPool } from '../../workers/index.js';

/** Models kept per process; a build's model never changes, so the only reason to drop one is memory. */
const MAX_MODELS = 64;

/** A built commit compiled into the model the data API plans with (it compiled in its build, so it does again). */
export const compileModelTask = workerTask<typeof import('./model-task.js').compileModel>({
  name: 'data-api.compile-model',
  moduleUrl: import.meta.url,
  script: 'model-task',
  exportName: 'compileModel',
});

/**
 * Compiled models by build id, compiled once per process. Compiling runs on the process's worker
 * pool (model-task.ts) because compile() can block for as long as a JavaScript model file runs,
 * and the request thread must keep answering other queries meanwhile. Concurrent first
 * requests for one build share the one compile; a failed compile is not kept, so it is retried.
 */
export class ModelCache {
  private readonly models = new Map<number, Promise<DataModel>>();

  constructor(private readonly pool: WorkerPool = workerPool) {}

  get(buildId: number, files: () => Promise<ReadonlyMap<string, string>>): Promise<DataModel> {
    const known = this.models.get(buildId);
    if (known) {
      // Most recently used last, so the oldest is the one dropped.
      this.models.delete(buildId);
      this.models.set(buildId, known);
      return known;
    }
    const compiled = files().then((loaded) => this.compile(loaded));
    this.models.set(buildId, compiled);
    compiled.catch(() => {
      if (this.models.get(buildId) === compiled) this.models.delete(buildId);
    });
    while (this.models.size > MAX_MODELS) this.models.delete(this.models.keys().next().value!);
    return compiled;
  }

  /** Forgets every model; the pool is the process's, closed when the server stops. */
  close(): void {
    this.models.clear();
  }

  private async compile(files: ReadonlyMap<string, string>): Promise<DataModel> {
    try {
      return await this.pool.run(compileModelTask, [...files]);
    } catch (error) {
      if (error instanceof TaskFailedError) throw new Error(`The data model does not compile: ${error.message}`);
      throw error;
    }
  }
}
