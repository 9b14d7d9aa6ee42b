import type { Worker } from 'node:worker_threads';
import { ENGINE_THREAD_IDLE_MS, IdleTimer, startEngineWorker } from '../../lib/engine-worker.js';
import type { CompileSummary } from './public.js';
import type { CompileReply, CompileRequest } from './compile-worker.js';

/** A whole model compiles in well under this; past it the thread is stuck and is replaced. */
export const COMPILE_TIMEOUT_MS = 120_000;

interface Pending {
  resolve(summary: CompileSummary): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One compile thread per process, kept while compiles come: starting one and loading the engine
 * costs far more than a small compile. It ends after ENGINE_THREAD_IDLE_MS without one, and the
 * next compile starts another. Requests run one at a time in the order given; a thread that dies
 * or overruns the timeout is terminated, its request fails, and the next request starts a new one.
 */
export class ModelCompiler {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly idle: IdleTimer;

  constructor(
    private readonly timeoutMs = COMPILE_TIMEOUT_MS,
    idleMs = ENGINE_THREAD_IDLE_MS,
  ) {
    this.idle = new IdleTimer(idleMs, () => this.retire());
  }

  /** Whether a thread is up now (it ends when idle). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  compile(files: ReadonlyMap<string, string>): Promise<CompileSummary> {
    const run = this.tail.then(() => this.send([...files]));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Ends the thread (the server is closing); a later compile starts another. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.idle.busy();
    this.failAll(new Error('The compiler was closed'));
    await worker?.terminate();
  }

  private retire(): void {
    if (this.pending.size > 0 || !this.worker) return;
    const worker = this.worker;
    this.worker = undefined;
    void worker.terminate();
  }

  private send(files: Array<[string, string]>): Promise<CompileSummary> {
    const worker = this.thread();
    const id = this.nextId++;
    this.idle.busy();
    return new Promise<CompileSummary>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.discard(worker, new Error(`Compiling the model took longer than ${this.timeoutMs / 1000} s and was stopped`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, files } satisfies CompileRequest);
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startEngineWorker(import.meta.url, 'compile-worker');
    // An idle compile thread must not keep a process alive that has nothing else to do.
    worker.unref();
    worker.on('message', (reply: CompileReply) => this.settle(reply));
    worker.on('error', (error) => this.discard(worker, new Error(`The compile thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.discard(worker, new Error(`The compile thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(reply: CompileReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if (this.pending.size === 0) this.idle.idle();
    if (reply.ok) waiting.resolve({ valid: reply.valid, errors: reply.errors, cubesCount: reply.cubesCount });
    else waiting.reject(new Error(`The compiler failed: ${reply.message}`));
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

/** The process's compiler, shared by builds and validate. */
export const modelCompiler = new ModelCompiler();
