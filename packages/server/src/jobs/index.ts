import { loadedModules } from '../modules/index.js';
import type { JobEnv } from './kind.js';
import type { QueueName } from './queues.js';
import { JobRunner, type JobLog } from './runner.js';

/**
 * The one runner of a process, with every module's job kinds and schedules; main starts it, tests
 * drive it. `queues` narrows the jobs it runs (a worker given `--queues`); it ticks every schedule.
 */
export function createJobRunner(env: JobEnv, log?: JobLog, queues?: readonly QueueName[]): JobRunner {
  return new JobRunner({
    kinds: loadedModules().flatMap((m) => m.jobs ?? []),
    schedules: loadedModules().flatMap((m) => m.schedules ?? []),
    env,
    pollMs: env.config.jobPollMs,
    ...(log ? { log } : {}),
    ...(queues ? { queues } : {}),
  });
}
