import { loadedModules } from '../modules/index.js';
import type { JobEnv } from './kind.js';
import { JobRunner, type JobLog } from './runner.js';

/** The one runner of a process, with every module's job kinds; main starts it, tests drive it. */
export function createJobRunner(env: JobEnv, log?: JobLog): JobRunner {
  return new JobRunner({ kinds: loadedModules().flatMap((m) => m.jobs ?? []), env, pollMs: env.config.jobPollMs, ...(log ? { log } : {}) });
}
