import type { Factory } from '../../core/factory.js';
import { formatTable } from '../../core/output.js';
import { fileColumns, summaryLine, type SyncStatus } from './common.js';

/**
 * What `--wait` prints once a sync has finished: with --json the one document of section 4.8
 * rule 6 (the generated branch and the terminal result), else the generated files on stdout and
 * the outcome on stderr.
 */
export function finish(f: Factory, sync: SyncStatus): void {
  if (f.output.json) {
    const { syncJobId, branchName, status, error, files, stages } = sync;
    f.output.data(JSON.stringify({ syncJobId, branchName, status, error, files, stages }, null, 2));
    return;
  }
  if (sync.files.length > 0) f.output.data(formatTable(fileColumns, sync.files));
  f.output.notice(summaryLine(sync));
}
