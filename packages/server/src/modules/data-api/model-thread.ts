import type { Worker } from 'node:worker_threads';
import { ENGINE_THREAD_IDLE_MS, IdleTimer, startEngineWorker } from '../../lib/engine-worker.js';
import type { DataModel } from '@plinth/semantic';
import type { ModelReply, ModelRequest } from './model-worker.js';

/** A model that compiled in its build compiles again in well under this. */
const COMPILE_TIMEOUT_MS = 120_000;

interface Pending {
  resolve(model: DataModel): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The thread that compiles built commits into models for the data API, kept while compiles come
 * and ended after ENGINE_THREAD_IDLE_MS without one. The builds module's compile thread answers
 * only a summary (its model stays in its thread), and changing its protocol would touch another
 * module; a second thread costs one engine load per process.
 */
export class ModelThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly idle: IdleTimer;

  constructor(idleMs = ENGINE_THREAD_IDLE_MS) {
    this.idle = new IdleTimer(idleMs, () => this.retire());
  }

  /** Whether a thread is up now (it ends when idle). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  compile(files: ReadonlyMap<string, string>): Promise<DataModel> {
    const worker = this.thread();
    const id = this.nextId++;
    this.idle.busy();
    return new Promise<DataModel>((resolve, reject) => {
      const timer = setTimeout(() => this.discard(worker, new Error('Compiling the data model took too long')), COMPILE_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, files: [...files] } satisfies ModelRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.idle.busy();
    this.failAll(new Error('The data API compiler was closed'));
    await worker?.terminate();
  }

  private retire(): void {
    if (this.pending.size > 0 || !this.worker) return;
    const worker = this.worker;
    this.worker = undefined;
    void worker.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startEngineWorker(import.meta.url, 'model-worker');
    worker.unref();
    worker.on('message', (reply: ModelReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      clearTimeout(waiting.timer);
      if (this.pending.size === 0) this.idle.idle();
      if (reply.ok) waiting.resolve(reply.model);
      else waiting.reject(new Error(`The data model does not compile: ${reply.message}`));
    });
    worker.on('error', (error) => this.discard(worker, new Error(`The data API compile thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.discard(worker, new Error(`The data API compile thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private discard(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.idle.busy();
    this.failAll(error);
    void worker.terminate();
  }

  private failAll(error: Error): void {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      waiting.reject(error);
    }
  }
}
