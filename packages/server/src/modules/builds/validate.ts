import { hostname } from 'node:os';
import { badRequest } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { ServiceContext } from '../module.js';
import { logSource } from './views.js';
import { counted } from '../../lib/counted.js';

export interface ValidateInput {
  branch?: string | undefined;
  devMode?: boolean | undefined;
}

const NO_SESSION = 'No dev-mode session is open for this credential; run plinth data-model dev-mode first';

/**
 * Compiles a branch head through the same compile thread as builds and answers what the compiler
 * said. With devMode it compiles the caller's dev branch (its uncommitted working copy: dev
 * branches hold their edits as commits) and records the result as a build of it, so that build
 * status reports it and the data API can serve it.
 */
export async function validate(ctx: ServiceContext, principal: Principal, deploymentId: number, input: ValidateInput) {
  const { dataModel, builds } = ctx.services;
  const branch = await dataModel.target(principal, deploymentId, input.branch);
  if (input.devMode && branch.kind !== 'dev' && !branch.dev_mode) {
    if (input.branch) {
      throw badRequest(
        `Branch ${branch.name} is not a dev-mode branch; run plinth data-model dev-mode ${deploymentId} ${branch.name} to get one`,
      );
    }
    throw badRequest(NO_SESSION);
  }
  const commitId = Number(branch.head_commit_id);
  const files = await dataModel.filesAt(principal.accountId, commitId);
  const started = new Date();
  const summary = await builds.compileFiles(files);
  if (input.devMode) {
    const row = await ctx.db
      .insertInto('model_build')
      .values({
        account_id: principal.accountId,
        deployment_id: deploymentId,
        branch_name: branch.name,
        commit_id: commitId,
        status: summary.valid ? 'built' : 'failed',
        trigger: 'validate',
        job_id: null,
        errors: JSON.stringify(summary.errors),
        cubes_count: summary.cubesCount,
        started_at: started,
        finished_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.services.deploymentLogs.append({
      accountId: principal.accountId,
      deploymentId,
      buildId: Number(row.id),
      source: logSource(branch.name),
      // Compiled on the request's process, not by a job: the pod is the process, as a job worker id starts.
      pod: `${hostname()}:${process.pid}`,
      container: 'builder',
      level: summary.valid ? 'info' : 'error',
      message: `Build ${row.id} of ${branch.name} at commit ${commitId} (validate): ${summary.valid ? `built, ${counted(summary.cubesCount, 'cube')}` : `failed, ${counted(summary.errors.length, 'error')}`}`,
    });
  }
  return { valid: summary.valid, errors: summary.errors, cubesCount: summary.cubesCount, branchName: branch.name, commitId };
}
