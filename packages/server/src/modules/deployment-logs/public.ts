import type { LogSource } from '../../store/schema.js';

/** What other modules use to write a deployment's logs (builds now, the data API in issue 14). */
export interface DeploymentLogWriter {
  append(entry: LogEntry): Promise<void>;
}

export interface LogEntry {
  accountId: number;
  deploymentId: number;
  buildId?: number | null;
  source: LogSource;
  /** The process that writes it (a job worker id). */
  pod: string;
  /** The part that writes it: `builder` for builds. */
  container: string;
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** Log lines are kept this long (the retention sweep deletes older ones): enough to look into a week-old build. */
export const LOG_RETENTION_MS = 14 * 24 * 3600_000;
