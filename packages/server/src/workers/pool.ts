import { Worker } from 'node:worker_threads';
import { IdleTimer, THREAD_IDLE_MS } from './idle.js';
import { defaultSource, scriptUrl, threadEntry, type ScriptSource } from './scripts.js';
import type { WorkerTask } from './task.js';
import type { TaskReply, TaskRequest } from './thread.js';

export interface PoolOptions {
  /** Threads at most; calls past that wait their turn, in order. */
  size: number;
  idleMs?: number;
  /** Where threads load their code from (scripts.ts); by default as this file runs. */
  source?: ScriptSource;
}

/** Why a call failed other than by its task's own error: the thread died, overran, or the pool closed. */
export class WorkerPoolError extends Error {}

/** A task's own error, thrown in the thread: its message as the task gave it. */
export class TaskFailedError extends Error {
  constructor(
    readonly task: string,
    message: string,
  ) {
    super(message);
  }
}

interface Call {
  task: WorkerTask<unknown, unknown>;
  input: unknown;
  timeoutMs: number;
  resolve(output: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  idle: IdleTimer;
  running: (Call & { id: number; timer: NodeJS.Timeout }) | undefined;
}

/**
 * Threads for CPU-bound work (compiling a model, anything that would block the event loop), each
 * running one task at a time. Threads start on demand up to `size`, warm ones first, and end after
 * `idleMs` without a task, so an idle server holds none. A thread that crashes, exits or overruns
 * its task's timeout is ended and its call fails with a WorkerPoolError saying so; the next call
 * starts another. Threads are unref'd: the pool never keeps a process alive by itself.
 */
export class WorkerPool {
  private readonly threads = new Set<Thread>();
  private readonly waiting: Call[] = [];
  private readonly tasks = new Map<string, WorkerTask<unknown, unknown>>();
  private readonly source: ScriptSource;
  private readonly idleMs: number;
  private nextId = 1;
  private closed = false;
  private size: number;

  constructor(options: PoolOptions) {
    this.size = checkedSize(options.size);
    this.source = options.source ?? defaultSource(import.meta.url);
    this.idleMs = options.idleMs ?? THREAD_IDLE_MS;
  }

  /** Threads up now (busy or waiting to end when idle). */
  get threadCount(): number {
    return this.threads.size;
  }

  /** Changes how many threads may run at once (the server's setting); threads past it end once idle. */
  resize(size: number): void {
    this.size = checkedSize(size);
    this.dispatch();
  }

  /** Runs `task` on a pool thread; `timeoutMs` overrides the task's own. */
  run<I, O>(task: WorkerTask<I, O>, input: I, options: { timeoutMs?: number } = {}): Promise<O> {
    if (this.closed) return Promise.reject(new WorkerPoolError(`The worker pool is closed: "${task.name}" was not run`));
    this.register(task as WorkerTask<unknown, unknown>);
    return new Promise<O>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? task.timeoutMs;
      this.waiting.push({
        task: task as WorkerTask<unknown, unknown>,
        input,
        timeoutMs,
        resolve: resolve as (output: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  /**
   * Ends the pool (the server is closing): calls not yet started fail, those running get up to
   * `graceMs` to finish, then every thread is ended and what still runs fails. Later calls fail.
   */
  async close(graceMs = 0): Promise<void> {
    this.closed = true;
    for (const call of this.waiting.splice(0))
      call.reject(new WorkerPoolError(`The worker pool closed before "${call.task.name}" started`));
    const running = [...this.threads].filter((thread) => thread.running);
    if (running.length > 0 && graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      const done = Promise.all(running.map((thread) => new Promise<void>((resolve) => thread.worker.once('message', () => resolve()))));
      await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    await Promise.all(
      [...this.threads].map((thread) =>
        this.end(thread, (name) => new WorkerPoolError(`The worker pool closed before "${name}" finished`)),
      ),
    );
  }

  /** Task names are the registry's keys: two declarations under one name would be run by whichever a thread loaded first. */
  private register(task: WorkerTask<unknown, unknown>): void {
    const known = this.tasks.get(task.name);
    if (!known) this.tasks.set(task.name, task);
    else if (known.moduleUrl !== task.moduleUrl || known.script !== task.script || known.exportName !== task.exportName) {
      throw new Error(`Two worker tasks are named "${task.name}"`);
    }
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      let thread = this.idleThread();
      if (!thread && this.threads.size < this.size) {
        try {
          thread = this.start();
        } catch (error) {
          // A thread that cannot even start (no memory for another isolate) fails the call, not the caller's stack.
          this.waiting.shift()!.reject(new WorkerPoolError(`A worker thread could not start: ${(error as Error).message}`));
          continue;
        }
      }
      if (!thread) return;
      this.assign(thread, this.waiting.shift()!);
    }
  }

  private idleThread(): Thread | undefined {
    for (const thread of this.threads) if (!thread.running) return thread;
    return undefined;
  }

  private start(): Thread {
    const { script, options } = threadEntry(import.meta.url, this.source);
    const worker = new Worker(script, options);
    const thread: Thread = { worker, running: undefined, idle: new IdleTimer(this.idleMs, () => this.retire(thread)) };
    worker.on('message', (reply: TaskReply) => this.settle(thread, reply));
    worker.on('error', (error) =>
      this.fail(thread, (name) => new WorkerPoolError(`The worker thread running "${name}" failed: ${error.message}`)),
    );
    worker.on('exit', (code) =>
      this.fail(thread, (name) => new WorkerPoolError(`The worker thread running "${name}" stopped (exit code ${code})`)),
    );
    // After the listeners: adding a 'message' listener refs the thread's port again, and a ref'd
    // port keeps the process alive as long as the thread lives.
    worker.unref();
    this.threads.add(thread);
    return thread;
  }

  private assign(thread: Thread, call: Call): void {
    const id = this.nextId++;
    const { task } = call;
    const timer = setTimeout(() => {
      this.fail(thread, (name) => new WorkerPoolError(`"${name}" took longer than ${call.timeoutMs / 1000} s and was stopped`));
    }, call.timeoutMs);
    thread.idle.busy();
    thread.running = { ...call, id, timer };
    const request: TaskRequest = {
      id,
      name: task.name,
      script: scriptUrl(task.moduleUrl, task.script, this.source),
      exportName: task.exportName,
      input: call.input,
    };
    try {
      thread.worker.postMessage(request);
    } catch (error) {
      // An input that cannot be cloned never reached the thread, which stays good for the next call.
      clearTimeout(timer);
      thread.running = undefined;
      thread.idle.idle();
      call.reject(new WorkerPoolError(`The input of "${task.name}" cannot be sent to a worker thread: ${(error as Error).message}`));
    }
  }

  private settle(thread: Thread, reply: TaskReply): void {
    const call = thread.running;
    if (!call || call.id !== reply.id) return;
    clearTimeout(call.timer);
    thread.running = undefined;
    if (reply.ok) call.resolve(reply.output);
    else call.reject(new TaskFailedError(call.task.name, reply.message));
    this.dispatch();
    if (thread.running) return;
    if (this.threads.size > this.size) this.retire(thread);
    else thread.idle.idle();
  }

  /** The thread is not to be trusted any more: it ends, its call fails, and a waiting call gets a new one. */
  private fail(thread: Thread, error: (task: string) => Error): void {
    if (!this.threads.has(thread)) return;
    void this.end(thread, error);
    this.dispatch();
  }

  private retire(thread: Thread): void {
    if (thread.running || !this.threads.has(thread)) return;
    void this.end(thread, (name) => new WorkerPoolError(`The worker thread ended while running "${name}"`));
  }

  private async end(thread: Thread, error: (task: string) => Error): Promise<void> {
    this.threads.delete(thread);
    thread.idle.busy();
    const call = thread.running;
    thread.running = undefined;
    if (call) {
      clearTimeout(call.timer);
      call.reject(error(call.task.name));
    }
    await thread.worker.terminate();
  }
}

function checkedSize(size: number): number {
  if (!Number.isInteger(size) || size < 1) throw new Error(`A worker pool needs at least one thread, not ${size}`);
  return size;
}
