import type { DataModel } from '@plinth/semantic';
import { ModelThread } from './model-thread.js';

/** Models kept per process; a build's model never changes, so the only reason to drop one is memory. */
const MAX_MODELS = 64;

/**
 * Compiled models by build id, compiled once per process. Compiling runs on the data API's own
 * thread (model-thread.ts) because compile() can block for as long as a JavaScript model file
 * runs, and the request thread must keep answering other queries meanwhile. Concurrent first
 * requests for one build share the one compile; a failed compile is not kept, so it is retried.
 */
export class ModelCache {
  private readonly models = new Map<number, Promise<DataModel>>();

  constructor(private readonly thread = new ModelThread()) {}

  get(buildId: number, files: () => Promise<ReadonlyMap<string, string>>): Promise<DataModel> {
    const known = this.models.get(buildId);
    if (known) {
      // Most recently used last, so the oldest is the one dropped.
      this.models.delete(buildId);
      this.models.set(buildId, known);
      return known;
    }
    const compiled = files().then((loaded) => this.thread.compile(loaded));
    this.models.set(buildId, compiled);
    compiled.catch(() => {
      if (this.models.get(buildId) === compiled) this.models.delete(buildId);
    });
    while (this.models.size > MAX_MODELS) this.models.delete(this.models.keys().next().value!);
    return compiled;
  }

  close(): Promise<void> {
    this.models.clear();
    return this.thread.close();
  }
}
