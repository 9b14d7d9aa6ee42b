import { DEFAULT_WORKER_THREADS } from '../config.js';
import { WorkerPool } from './pool.js';

export { workerTask, type WorkerTask } from './task.js';
export { TaskFailedError, WorkerPool, WorkerPoolError } from './pool.js';

/**
 * The process's worker pool, shared by every module's CPU-bound tasks: one set of threads, so a
 * build and a data API compile reuse a thread that has already loaded the engine. The server sizes
 * it from its settings (PLINTH_WORKER_THREADS) and closes it when it stops.
 */
export const workerPool = new WorkerPool({ size: DEFAULT_WORKER_THREADS });
