import type { Kysely } from 'kysely';
import type { CompileError } from '@plinth/semantic';
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
