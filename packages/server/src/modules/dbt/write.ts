import { ApiError } from '../../http/errors.js';
import type { JobContext } from '../../jobs/kind.js';
import type { DbtSyncRow, TreeEntries } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { DEFAULT_BRANCH } from '../data-model/public.js';
import { DBT_SYNC_TRIGGER } from './kind.js';
import { StageRecorder, SyncCancelled } from './progress.js';
import { GENERATED_DIRECTORY, type GeneratedModel } from './project/index.js';
import { DbtRepo } from './repo.js';
import { syncBranchName } from './refs.js';
import { counted } from '../../lib/counted.js';

/**
 * The write stage: a new shared branch forked from the deploy branch's head, whose tree is the
 * deploy branch's files with everything under model/dbt/ replaced by the generated files, and a
 * build of it, all in one transaction with the sync's row moving to `written`. That move is a
 * compare-and-swap on "running, no cancel asked for", so a cancel that got there first rolls the
 * whole write back: a cancelled or failed sync never leaves a branch.
 */
export async function writeBranch(
  context: JobContext,
  row: DbtSyncRow,
  stages: StageRecorder,
  generated: GeneratedModel,
  commitSha: string,
): Promise<{ branchName: string; buildId: number | null }> {
  const { dataModel } = context.services;
  const repo = new DbtRepo(context.store.db);
  const accountId = row.account_id;
  const paths = [...generated.files.keys()].sort();
  await stages.start('write', `Writing ${counted(paths.length, 'file')}`);
  const deploy = await dataModel.branch(accountId, row.deployment_id, DEFAULT_BRANCH);
  const base = await dataModel.treeAt(accountId, deploy.head_commit_id);
  // Blobs are content-addressed and harmless alone, so they are stored before the transaction.
  const hashes = await dataModel.storeBlobs(
    accountId,
    paths.map((path) => generated.files.get(path)!),
  );
  const entries: TreeEntries = Object.fromEntries(Object.entries(base).filter(([path]) => !path.startsWith(`${GENERATED_DIRECTORY}/`)));
  paths.forEach((path, i) => (entries[path] = hashes[i]!));
  await context.heartbeat();
  // Two syncs of one commit in the same second would get one name: the later takes the next second.
  for (let attempt = 0; ; attempt++) {
    const branchName = syncBranchName(row.ref, new Date(context.now() + attempt * 1000), commitSha);
    try {
      return await write(branchName);
    } catch (error) {
      if (!(error instanceof BranchTaken) || attempt >= MAX_NAME_ATTEMPTS) throw error instanceof BranchTaken ? error.cause : error;
    }
  }

  function write(branchName: string) {
    return transaction(context.store.db, async () => {
      const message = `Branch ${branchName} from ${deploy.name}: ${counted(paths.length, 'generated file')}`;
      const claimed = await repo.update(
        row.id,
        {
          state: 'written',
          branch_name: branchName,
          stage: 'build',
        },
        ['running'],
        true,
      );
      if (!claimed) throw new SyncCancelled();
      const branch = await dataModel.createBranch(deploy, branchName).catch((error: unknown) => {
        throw error instanceof ApiError && error.code === 'conflict' ? new BranchTaken(error) : error;
      });
      const result = await dataModel.commitTree(null, branch, {
        entries,
        baseCommitId: branch.head_commit_id,
        message: `dbt sync of ${row.ref} at ${commitSha.slice(0, 7)}`,
        build: DBT_SYNC_TRIGGER,
      });
      // The write is done (and the build running) once the branch and its build exist.
      const done = stages.doneStages('write', message, { done: paths.length, total: paths.length });
      const building = done.map((stage) =>
        stage.name === 'build' ? { ...stage, status: 'running', startedAt: new Date(context.now()).toISOString() } : stage,
      );
      await repo.update(row.id, { build_id: result.buildId, stages: building }, ['written']);
      return { branchName, buildId: result.buildId };
    });
  }
}

const MAX_NAME_ATTEMPTS = 10;

class BranchTaken extends Error {
  constructor(override readonly cause: ApiError) {
    super(cause.message);
  }
}
