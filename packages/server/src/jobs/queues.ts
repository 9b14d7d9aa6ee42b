/**
 * The named queues background work runs on. Each has its own number of jobs a process runs at
 * once, so a burst of one kind of work (deliveries, say) never holds back another (builds), and a
 * worker process can be given only some queues (`plinth-server worker --queues builds`).
 * No imports: config.ts validates settings against this list.
 */
export const QUEUES = {
  /** Compiling a deployment's model: CPU-bound, so few at once. */
  builds: { concurrency: 2 },
  /** Refreshing pre-aggregations. */
  rollups: { concurrency: 1 },
  /** Rendering reports and notifications in a browser: heavy on memory. */
  rendering: { concurrency: 1 },
  /** Sending what was rendered (mail, webhooks): mostly waiting on the network. */
  delivery: { concurrency: 4 },
  /** Bringing a model in from elsewhere: dbt syncs and GitHub imports (clones). */
  imports: { concurrency: 2 },
  /** The platform's own upkeep: retention sweeps, ending CI runs whose lease lapsed. */
  maintenance: { concurrency: 2 },
} as const satisfies Record<string, { concurrency: number }>;

export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

export type QueueConcurrency = Record<QueueName, number>;

export function isQueueName(name: string): name is QueueName {
  return Object.hasOwn(QUEUES, name);
}

/** What a queue list or setting named that is no queue: the message lists the ones that exist. */
export function unknownQueue(name: string): string {
  return `"${name}" is not a queue; the queues are ${QUEUE_NAMES.join(', ')}`;
}

/**
 * A comma-separated list of queue names (`builds,rollups`), each known, none twice. Answers the
 * names, or the problem to report.
 */
export function parseQueueList(raw: string): QueueName[] | { problem: string } {
  const names = raw.split(',').map((part) => part.trim());
  if (names.some((name) => name === '')) return { problem: 'must be a comma-separated list of queue names, none empty' };
  for (const name of names) if (!isQueueName(name)) return { problem: unknownQueue(name) };
  return [...new Set(names)] as QueueName[];
}

/** The most jobs of one queue a process runs at once: more is surely a typo, and would exhaust the store's pool. */
export const MAX_QUEUE_CONCURRENCY = 64;

/**
 * `builds=2,rendering=1`: each named queue's concurrency, the others keep their default. Answers
 * the full table, or the problem to report.
 */
export function parseQueueConcurrency(raw: string | undefined): QueueConcurrency | { problem: string } {
  const table = Object.fromEntries(QUEUE_NAMES.map((name) => [name, QUEUES[name].concurrency])) as QueueConcurrency;
  if (raw === undefined) return table;
  const seen = new Set<string>();
  for (const part of raw.split(',').map((p) => p.trim())) {
    const match = /^([^=\s]+)\s*=\s*(\S*)$/.exec(part);
    if (!match) return { problem: `"${part}" is not queue=number (e.g. builds=2,rendering=1)` };
    const [, name, value] = match as unknown as [string, string, string];
    if (!isQueueName(name)) return { problem: unknownQueue(name) };
    if (seen.has(name)) return { problem: `queue "${name}" is given twice` };
    seen.add(name);
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_QUEUE_CONCURRENCY) {
      return { problem: `the concurrency of "${name}" must be a whole number from 1 to ${MAX_QUEUE_CONCURRENCY}, not "${value}"` };
    }
    table[name] = Number(value);
  }
  return table;
}
