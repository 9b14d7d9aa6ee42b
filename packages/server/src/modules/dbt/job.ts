import { GitSourceError, withCheckout } from '../../git/checkout.js';
import { ApiError } from '../../http/errors.js';
import { JobAbort } from '../../jobs/runner.js';
import { defineJob } from '../../jobs/define.js';
import type { JobContext } from '../../jobs/kind.js';
import type { Job } from '../../store/jobs.js';
import { counted } from '../../lib/counted.js';
import { DBT_SYNC_JOB, DBT_SYNC_LEASE_MS, DBT_SYNC_MAX_ATTEMPTS, DbtSyncPayload } from './kind.js';
import { StageRecorder, SyncCancelled } from './progress.js';
import { DbtProjectError, generateCubes, readDbtProject, type GeneratedModel } from './project/index.js';
import { DbtRepo } from './repo.js';
import { initialStages } from './stages.js';
import { writeBranch } from './write.js';

/**
 * Runs one dbt sync: clone → parse → generate → write, each stage recorded as it happens; the
 * fifth, build, is the generated branch's own build (queued by write, read by the status).
 * Any server process may run it: the job is claimed from the store, and the row moves from queued
 * to running by compare-and-swap, so no sync runs twice. A failure or a cancel before write leaves
 * no branch (write is one transaction); see service.ts for a cancel after it.
 */
export const dbtSyncJob = defineJob({
  kind: DBT_SYNC_JOB,
  queue: 'imports',
  payload: DbtSyncPayload,
  maxAttempts: DBT_SYNC_MAX_ATTEMPTS,
  leaseMs: DBT_SYNC_LEASE_MS,
  handler: runSync,
});

async function runSync(job: Job<DbtSyncPayload>, context: JobContext): Promise<unknown> {
  const repo = new DbtRepo(context.store.db);
  const row = await repo.update(
    job.payload.syncId,
    { state: 'running', worker_id: context.workerId, stages: initialStages(), stage: null, error: null },
    ['queued', 'running'],
    true,
  );
  if (!row) return { skipped: 'the sync was cancelled or had already run' };
  const stages = new StageRecorder(repo, row, context);
  try {
    await stages.start('clone', `Cloning ${row.ref} of ${row.repository}`);
    const { dbt } = context.services;
    const { generated, commitSha } = await dbt.withRemote(await dbt.syncAccess(row), ({ url, auth }) =>
      withCheckout({ egress: dbt.egress, url, ref: row.ref, signal: context.signal, ...(auth ? { auth } : {}) }, async (checkout) => {
        const sha7 = checkout.commitSha.slice(0, 7);
        const cloned = `Cloned ${checkout.refKind} ${row.ref} at ${sha7}: ${counted(checkout.files, 'file')}, ${kib(checkout.bytes)}`;
        const progress = { done: checkout.files, total: checkout.files };
        await stages.done('clone', cloned, progress, { commit_sha: checkout.commitSha });

        await stages.start('parse', `Reading the dbt project in ${row.folder || 'the repository root'}`);
        const project = await readDbtProject(checkout.dir, row.folder);
        const models = project.models.length;
        const read = `Project ${project.name}: ${counted(models, 'model')} from ${project.source === 'manifest' ? 'target/manifest.json' : 'the model files'}`;
        await stages.done('parse', read, { done: models, total: models });

        await stages.start('generate');
        const generated = generateCubes(project);
        await stages.done(
          'generate',
          generatedSummary(generated),
          { done: generated.cubes.length, total: models },
          { files: fileList(generated) },
        );
        return { generated, commitSha: checkout.commitSha };
      }),
    );
    const written = await writeBranch(context, row, stages, generated, commitSha);
    return { status: 'written', branchName: written.branchName, buildId: written.buildId };
  } catch (error) {
    const abort = context.signal.aborted ? (context.signal.reason as JobAbort | undefined) : undefined;
    if (abort instanceof JobAbort && abort.reason !== 'cancelled') throw error; // lease lost or shutdown: not ours to record
    if (error instanceof SyncCancelled || abort || (error instanceof GitSourceError && error.reason === 'cancelled')) {
      await stages.end('cancelled', 'Cancelled');
      return { status: 'cancelled' };
    }
    const message = failureMessage(error);
    await stages.end('failed', message);
    return { status: 'failed', error: message };
  }
}

/** What a person needs to fix it: the messages of git, the project reader and the store are written for them. */
function failureMessage(error: unknown): string {
  if (error instanceof DbtProjectError)
    return error.file && !error.message.includes(error.file) ? `${error.file}: ${error.message}` : error.message;
  if (error instanceof GitSourceError || error instanceof ApiError) return error.message;
  return `The sync stopped on an internal error: ${error instanceof Error ? error.message : String(error)}`;
}

function generatedSummary(generated: GeneratedModel): string {
  const skipped = generated.skipped.map((s) => `${s.model} (${s.reason})`);
  return `${counted(generated.cubes.length, 'cube')} in ${counted(generated.files.size, 'file')}${skipped.length ? `; skipped ${skipped.join(', ')}` : ''}`;
}

/** Each generated file and the cube it holds (its file name, one cube per file). */
export function fileList(generated: GeneratedModel): Array<{ path: string; cube: string }> {
  return [...generated.files.keys()].sort().map((path) => ({ path, cube: path.slice(path.lastIndexOf('/') + 1).replace(/\.ya?ml$/, '') }));
}

const kib = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KiB`;
