/**
 * A CPU-bound task that runs on the process's worker pool (pool.ts): a function exported by a
 * script beside the module that declares it, loaded by the pool's threads on first use. The
 * declaring module never imports the script itself, only its type, so the task's code (and what
 * it imports, such as the semantic engine) loads in the threads and never on the event loop.
 */
export interface WorkerTask<Input, Output> {
  /** Unique in the process, `<module>.<task>`: what errors and the pool's registry name it by. */
  readonly name: string;
  /** The `import.meta.url` of the declaring module: the script is found beside it. */
  readonly moduleUrl: string;
  /** The script's file name without its extension (`compile-task`). */
  readonly script: string;
  /** The script's export that runs the task. */
  readonly exportName: string;
  /** Past this the thread is taken as stuck: it is ended and the call fails. */
  readonly timeoutMs: number;
  /** Only for the types: what the task takes and answers. */
  readonly __types?: (input: Input) => Output;
}

/** What a task's script exports: one argument in, one answer out, both plain data (structured clone). */
export type TaskFunction = (input: never) => unknown;

/** A task runs in well under this (a whole model compiles in seconds); past it the thread is stuck. */
export const DEFAULT_TASK_TIMEOUT_MS = 120_000;

export interface TaskDeclaration {
  name: string;
  moduleUrl: string;
  script: string;
  exportName: string;
  timeoutMs?: number;
}

/**
 * Declares a task, typed by its function: `workerTask<typeof import('./compile-task.js').compileSummary>({ … })`.
 * The type-only import keeps the script out of the declaring module's graph.
 */
export function workerTask<F extends TaskFunction>(declaration: TaskDeclaration): WorkerTask<Parameters<F>[0], Awaited<ReturnType<F>>> {
  if (!/^[a-z][a-z0-9-]*\.[a-zA-Z][a-zA-Z0-9-]*$/.test(declaration.name)) {
    throw new Error(`A worker task's name is "<module>.<task>", not "${declaration.name}"`);
  }
  return { timeoutMs: DEFAULT_TASK_TIMEOUT_MS, ...declaration };
}
