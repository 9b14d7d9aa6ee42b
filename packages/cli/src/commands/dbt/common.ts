import type { Schema } from '@plinth/api-client';
import type { Factory } from '../../core/factory.js';
import { UsageError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import { formatTable } from '../../core/output.js';
import { id } from '../../core/rest.js';

export const dbtPath = (deploymentId: string | undefined, rest = '') =>
  `/build/api/v1/deployments/${id(deploymentId, 'deployment_id')}/dbt${rest}`;
export const syncPath = (deploymentId: string | undefined, syncJobId: string | undefined, rest = '') =>
  dbtPath(deploymentId, `/syncs/${id(syncJobId, 'sync_job_id')}${rest}`);

export type Stage = Schema<'DbtSyncStage'>;
export type SyncStatus = Schema<'DbtSyncStatus'>;

export const TERMINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

export const integrationFields: Column[] = [
  ['Deployment', 'deploymentId'],
  ['Repository', 'repository'],
  ['Installation', 'installationId'],
  ['Folder', (row) => row.folder || '(repository root)'],
  ['Branch', 'branch'],
  ['Updated', 'updatedAt'],
];

export const fileColumns: Column[] = [
  ['Path', 'path'],
  ['Cube', 'cube'],
];

const stageColumns: Column[] = [
  ['Stage', 'name'],
  ['Status', 'status'],
  ['Progress', (s: Stage) => (s.progress ? `${s.progress.done}/${s.progress.total}` : '')],
  ['Message', (s: Stage) => s.message ?? ''],
];

/** One line per stage as it is reported: `clone  done  Cloned branch main at 1a2b3c4: …`. */
export function stageLine(stage: Stage): string {
  const progress = stage.progress && stage.status === 'running' ? ` (${stage.progress.done}/${stage.progress.total})` : '';
  return `${stage.name.padEnd(8)} ${stage.status.padEnd(9)} ${stage.message ?? ''}${progress}`.trimEnd();
}

export function summaryLine(sync: SyncStatus): string {
  const branch = sync.branchName ? `, branch ${sync.branchName}` : '';
  const stage = !TERMINAL.has(sync.status) && sync.stage ? ` (stage ${sync.stage})` : '';
  return `dbt sync ${sync.syncJobId} of ${sync.ref}: ${sync.status}${stage}${branch}`;
}

/** The status as a person reads it: the summary, the stages, the error and the files once generated. */
export function statusText(sync: SyncStatus): string {
  const parts = [summaryLine(sync), formatTable(stageColumns, sync.stages).trimEnd()];
  if (sync.error) parts.push(`error: ${sync.error}`);
  if (sync.files.length > 0) parts.push(formatTable(fileColumns, sync.files).trimEnd());
  return `${parts.join('\n\n')}\n`;
}

/** Section 4.8 rules 4 and 5, checked before any request; the server checks them again. */
export function checkRef(ref: string | undefined): string | undefined {
  if (ref === undefined) return undefined;
  if (ref.trim() === '') throw new UsageError("--ref is empty; name a branch or tag, or leave --ref out to sync the integration's branch");
  if (/^[0-9a-fA-F]{7,40}$/.test(ref)) throw new UsageError('--ref takes a branch or tag, not a commit SHA');
  return ref;
}

export function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new UsageError(`--interval must be a positive number of seconds, got "${value}"`);
  return Number(value);
}

/**
 * Polls a sync until it has finished, printing each stage on stderr as it starts and ends (a
 * stage's line again when its status changes). Answers the terminal status.
 */
export async function waitForSync(f: Factory, path: string, intervalSeconds: number): Promise<SyncStatus> {
  const client = await f.client();
  const printed = new Map<string, string>();
  for (;;) {
    const sync = (await client.request<SyncStatus>('GET', path)).data;
    for (const stage of sync.stages) {
      if (stage.status === 'pending') continue;
      const line = stageLine(stage);
      if (printed.get(stage.name) !== stage.status) f.output.notice(line);
      printed.set(stage.name, stage.status);
    }
    if (TERMINAL.has(sync.status)) return sync;
    await f.io.wait(intervalSeconds * 1000);
  }
}
