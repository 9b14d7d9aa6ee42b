import { parentPort } from 'node:worker_threads';
import type { TaskFunction } from './task.js';

/**
 * A pool thread (pool.ts): runs one task at a time, each by the function its script exports,
 * loading a script on the first task that needs it. A task that throws answers its message; a
 * thread that dies (a crash in native code, an exit) is the pool's to notice.
 */
export interface TaskRequest {
  id: number;
  name: string;
  /** The script's URL, already resolved for this thread's source (scripts.ts). */
  script: string;
  exportName: string;
  input: unknown;
}

export type TaskReply = { id: number; ok: true; output: unknown } | { id: number; ok: false; message: string };

/** Tasks by name, as the first request of each brought them: a name runs one function for the thread's life. */
const registered = new Map<string, Promise<TaskFunction>>();

function task(request: TaskRequest): Promise<TaskFunction> {
  let found = registered.get(request.name);
  if (!found) {
    found = import(request.script).then((script: Record<string, unknown>) => {
      const run = script[request.exportName];
      if (typeof run !== 'function') throw new Error(`${request.script} exports no function "${request.exportName}"`);
      return run as TaskFunction;
    });
    registered.set(request.name, found);
    // A script that failed to load may load on a later try (a file written since, in development).
    found.catch(() => registered.delete(request.name));
  }
  return found;
}

parentPort!.on('message', (request: TaskRequest) => {
  void (async () => {
    let reply: TaskReply;
    try {
      const run = await task(request);
      reply = { id: request.id, ok: true, output: await run(request.input as never) };
    } catch (error) {
      reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    try {
      parentPort!.postMessage(reply);
    } catch (error) {
      // An answer that cannot be cloned (a function, a class instance with private state) is the task's bug.
      parentPort!.postMessage({ id: request.id, ok: false, message: `its answer cannot be sent back: ${(error as Error).message}` });
    }
  })();
});
