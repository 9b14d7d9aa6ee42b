import type { Kysely } from 'kysely';
import type { CompileError } from '@plinth/semantic';
import type { Executor } from '../../store/executor.js';
import type { Database } from '../../store/schema.js';

/** What other modules use of builds. */
export interface BuildQueue {
  /**
   * Queues a build of one commit of a branch as a job of kind `data-model.build`, in `db`'s
   * transaction when given. Older builds of the same branch still queued are cancelled: the newer
   * one supersedes them.
   */
  queueBuild(input: QueueBuildInput, db?: Kysely<Database>): Promise<{ buildId: number }>;
  /** Compiles files with packages/semantic off the request thread (a worker), as a build does. */
  compileFiles(files: ReadonlyMap<string, string>): Promise<CompileSummary>;
  /**
   * The newest successful build of a branch (what the data API serves), or null when the branch
   * has none. Acts for no caller: the data API has already checked the token's deployment.
   */
  latestBuilt(accountId: number, deploymentId: number, branchName: string): Promise<LatestBuild | null>;
}

export interface LatestBuild {
  buildId: number;
  commitId: number;
}

export interface QueueBuildInput {
  accountId: number;
  deploymentId: number;
  branchName: string;
  commitId: number;
  /** What asked for it: deploy, commit, merge, merge-to-default, validate, rebuild, dbt-sync, data-api. */
  trigger: string;
}

export interface CompileSummary {
  valid: boolean;
  errors: CompileError[];
  cubesCount: number;
}

/** A build that has just compiled, as the serving gate sees it. */
export interface BuiltBuild {
  accountId: number;
  deploymentId: number;
  buildId: number;
  commitId: number;
  branchName: string;
}

/**
 * What may hold a new build back from serving while work derived from it (its pre-aggregations)
 * is done: the branch's previous build keeps serving until then. The pre-aggregations service is it.
 */
export interface ServingGate {
  /**
   * Called once a build compiled, before it is marked built; answers work to do in the transaction
   * that marks it built (queueing what it waits for), or nothing when it has nothing to wait for.
   */
  prepareBuild(build: BuiltBuild): Promise<((db: Executor) => Promise<void>) | undefined>;
  /** Which of these built builds are held back now. */
  held(db: Executor, buildIds: readonly number[]): Promise<Set<number>>;
}
