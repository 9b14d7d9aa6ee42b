import type { Schema } from '@plinth/api-client';

/** A log line as getDeploymentLogs answers it. */
export type LogLine = Schema<'DeploymentLogLine'>;

/**
 * The one printer of log lines, for a list and a follow alike: `time  source/container  [level] message`.
 * With --json, the line object itself, one per line, so the output pipes into `jq -c` line by line.
 */
export function formatLine(line: LogLine, json: boolean): string {
  if (json) return `${JSON.stringify(line)}\n`;
  return `${line.at}  ${line.source}/${line.container}  [${line.level}] ${line.message}\n`;
}
