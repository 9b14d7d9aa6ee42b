import type { Ok, Schema } from '@plinth/api-client';
import { buildPath, done, pauseOrStop, progress, StepError, type Gate } from './context.js';

type Stage = Schema<'DbtSyncStage'>;

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

const stageLine = (stage: Stage) =>
  `${stage.name}: ${stage.status}${stage.progress ? ` (${stage.progress.done}/${stage.progress.total})` : ''}${stage.message ? ` — ${stage.message}` : ''}`;

/**
 * Step 1: syncs the ref into a new shared branch and waits until its build is done, printing each
 * stage as it changes. A sync that failed (a model that does not compile, a bad project) fails the
 * step with the server's error, which names the compiler's complaint.
 */
export async function syncRef(gate: Gate): Promise<void> {
  const started = await gate.client.request<Ok<'/build/api/v1/deployments/{deploymentId}/dbt/syncs', 'post'>>(
    'POST',
    buildPath(gate, '/dbt/syncs'),
    {
      body: { ref: gate.ref },
    },
  );
  const syncJobId = started.data.syncJobId;
  gate.state.syncJobId = syncJobId;
  progress(gate, 'sync', `sync job ${syncJobId} of ref ${gate.ref} started`);
  const printed = new Map<string, string>();
  for (;;) {
    const { data } = await gate.client.request<Ok<'/build/api/v1/deployments/{deploymentId}/dbt/syncs/{syncJobId}', 'get'>>(
      'GET',
      buildPath(gate, `/dbt/syncs/${syncJobId}`),
    );
    for (const stage of data.stages ?? []) {
      const line = stageLine(stage);
      if (stage.status !== 'pending' && printed.get(stage.name) !== line) progress(gate, 'sync', line);
      printed.set(stage.name, line);
    }
    if (data.branchName) gate.state.generatedBranch = data.branchName;
    if (data.buildId !== null && data.buildId !== undefined) gate.state.buildId = data.buildId;
    if (TERMINAL.has(data.status)) {
      if (data.status !== 'COMPLETED') {
        const where = data.branchName ? ` (branch ${data.branchName} is kept for inspection)` : '';
        throw new StepError('sync', `sync job ${syncJobId} ${data.status.toLowerCase()}: ${data.error ?? 'no error given'}${where}`);
      }
      const files = data.files?.length ?? 0;
      done(
        gate,
        'sync',
        `ref ${gate.ref} synced to branch ${data.branchName} (${files} generated file${files === 1 ? '' : 's'}, build ${data.buildId})`,
      );
      return;
    }
    await pauseOrStop(gate, 'sync', gate.pollMs, `sync job ${syncJobId}`);
  }
}
