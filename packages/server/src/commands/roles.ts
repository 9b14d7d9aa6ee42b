import { parseQueueList, type QueueName } from '../jobs/queues.js';
import { usageError } from './command.js';

/**
 * What one `plinth-server` process does. `serve` (no command) answers HTTP and runs background
 * work; `worker` runs background work only, so jobs can have processes of their own. Both take
 * `--queues a,b` (the named queues whose jobs this process runs; every queue unless given, `none`
 * for no job at all); both tick the schedules, which any number of processes may do.
 */
export interface ProcessRole {
  role: 'serve' | 'worker';
  queues: readonly QueueName[] | undefined;
}

export const ROLES_USAGE = `usage: plinth-server [--queues a,b|none]          serve HTTP and run background jobs (settings from the environment, see README)
       plinth-server worker [--queues a,b|none]   run background jobs and schedules only, serving no HTTP`;

/** The role asked for, or undefined when `args` name another command (accounts, help). */
export function processRole(args: readonly string[]): ProcessRole | undefined {
  const worker = args[0] === 'worker';
  if (!worker && args.length > 0 && !args[0]!.startsWith('--')) return undefined;
  const rest = worker ? args.slice(1) : args;
  let queues: readonly QueueName[] | undefined;
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag !== '--queues') throw usageError(`unknown option "${flag}"\n${ROLES_USAGE}`);
    if (queues) throw usageError('--queues is given twice');
    const value = inline ?? rest[++i];
    if (value === undefined) throw usageError(`--queues needs a comma-separated list of queues, e.g. --queues builds,rollups`);
    if (value === 'none') queues = [];
    else {
      const parsed = parseQueueList(value);
      if ('problem' in parsed) throw usageError(`--queues: ${parsed.problem}`);
      queues = parsed;
    }
  }
  return { role: worker ? 'worker' : 'serve', queues };
}
