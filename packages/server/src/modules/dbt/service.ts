import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { DbtSyncRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import type { EgressPolicy } from '../../egress/policy.js';
import { withCloneAccess, type CloneRemote, type RepositoryAccess } from '../github/public.js';
import type { ServiceContext } from '../module.js';
import { dbtSyncJob } from './job.js';
import { checkFolder, checkRefName, syncRef } from './refs.js';
import { DbtRepo } from './repo.js';
import { checkRefExists, connectSource, integrationAccess, remoteDefaultBranch, remoteRefs, syncAccess } from './source.js';
import { endStages, initialStages } from './stages.js';
import { integrationView, resultView, syncView, type SyncStatusView } from './views.js';

export interface ConnectInput {
  repository: string;
  installationId?: number;
  folder?: string;
  branch?: string;
}

/**
 * A deployment's dbt integration and its sync jobs. Connecting and starting a sync ask the remote
 * first, so a repository that cannot be reached or a ref it does not have is a 400 at once and
 * changes nothing; the work itself runs as a `dbt.sync` job (job.ts) in any server process.
 */
export class DbtService {
  readonly repo: DbtRepo;

  constructor(private readonly ctx: ServiceContext) {
    this.repo = new DbtRepo(ctx.db);
  }

  /** What a dbt repository may be; the sync job clones through it too. */
  get egress(): EgressPolicy {
    return this.ctx.egress;
  }

  /** The GitHub App's client, shared with `github connect` so both use (and replace) the same tokens. */
  private get github() {
    return this.ctx.services.github.client;
  }

  /** Runs git work on a repository's remote, with its credentials or a fresh installation token (job.ts clones through it). */
  withRemote<T>(source: RepositoryAccess, fn: (remote: CloneRemote) => Promise<T>): Promise<T> {
    return withCloneAccess(this.github, source, fn);
  }

  /** How the sync job reaches a sync's repository (source.ts syncAccess). */
  async syncAccess(row: DbtSyncRow): Promise<RepositoryAccess> {
    return syncAccess(row, await this.repo.integration(row.account_id, row.deployment_id), this.ctx.secrets);
  }

  async connect(accountId: number, deploymentId: number, input: ConnectInput) {
    await this.deployment(accountId, deploymentId);
    const source = connectSource(input, this.github.configured);
    const folder = checkFolder(input.folder);
    if (input.branch !== undefined) checkRefName(input.branch, 'branch');
    const { refs, url } = await remoteRefs(this.github, this.ctx.egress, source);
    let branch = input.branch;
    if (branch === undefined) {
      const found = remoteDefaultBranch(refs);
      if (!found) throw badRequest(`Repository ${source.repository} has no HEAD branch and no main branch; name the branch with --branch`);
      branch = found;
    }
    checkRefExists(refs, url, branch, 'branch');
    const credentials = source.credentials === null ? null : this.ctx.secrets.seal(JSON.stringify(source.credentials));
    const row = await this.repo.saveIntegration({ accountId, deploymentId, ...source, credentials, folder, branch });
    return integrationView(row);
  }

  async show(accountId: number, deploymentId: number) {
    return integrationView(await this.integration(accountId, deploymentId));
  }

  async disconnect(accountId: number, deploymentId: number): Promise<void> {
    await this.deployment(accountId, deploymentId);
    if (!(await this.repo.deleteIntegration(accountId, deploymentId))) throw noIntegration(deploymentId);
  }

  /** Queues a sync of `ref` (default: the integration's branch) once the remote confirms it has it. */
  async startSync(accountId: number, deploymentId: number, input: { ref?: string }) {
    const integration = await this.integration(accountId, deploymentId, true);
    const ref = syncRef(input.ref, integration.branch);
    const source = integrationAccess(integration, this.ctx.secrets);
    const { refs, url } = await remoteRefs(this.github, this.ctx.egress, source);
    checkRefExists(refs, url, ref, 'branch or tag');
    const row = await transaction(this.ctx.db, async () => {
      const inserted = await this.repo.insertSync({
        accountId,
        deploymentId,
        repository: integration.repository,
        installationId: source.installationId,
        folder: integration.folder,
        ref,
        stages: initialStages(),
      });
      const job = await dbtSyncJob.enqueue(this.ctx.db, { syncId: inserted.id }, { accountId });
      await this.repo.update(inserted.id, { job_id: job.id }, ['queued']);
      return inserted;
    });
    return { syncJobId: row.id, status: 'QUEUED' as const, ref };
  }

  async status(accountId: number, deploymentId: number, syncJobId: number): Promise<SyncStatusView> {
    return this.view(await this.sync(accountId, deploymentId, syncJobId));
  }

  async result(accountId: number, deploymentId: number, syncJobId: number) {
    const view = await this.status(accountId, deploymentId, syncJobId);
    if (view.status === 'QUEUED' || view.status === 'RUNNING') {
      throw conflict(
        `dbt sync ${syncJobId} is ${view.status}${view.stage ? ` (stage ${view.stage})` : ''}; its result is ready once it has COMPLETED, FAILED or been CANCELLED`,
      );
    }
    return resultView(view);
  }

  /**
   * Cancels a sync. A queued one ends at once. A running one is flagged: its job stops at its next
   * step and records CANCELLED; the flag and the job's write of the branch are compare-and-swaps on
   * the same row, so either the branch is never written or the cancel sees it written. Once
   * written, the build is cancelled and the generated branch deleted. A finished sync is a 409.
   */
  async cancel(principal: Principal, deploymentId: number, syncJobId: number): Promise<SyncStatusView> {
    const row = await this.sync(principal.accountId, deploymentId, syncJobId);
    const now = new Date();
    const cancelled = await this.repo.update(
      row.id,
      {
        state: 'cancelled',
        finished_at: now,
        stages: endStages(row.stages, 'cancelled', 'Cancelled before it started', now.toISOString()),
      },
      ['queued'],
    );
    if (cancelled) {
      if (row.job_id !== null) await dbtSyncJob.cancel(this.ctx.db, Number(row.job_id));
      return this.view(cancelled);
    }
    const flagged = await this.repo.update(row.id, { cancel_requested: true }, ['running']);
    if (flagged) {
      if (row.job_id !== null) await dbtSyncJob.cancel(this.ctx.db, Number(row.job_id));
      return this.view(flagged);
    }
    const current = await this.view((await this.repo.syncById(row.id))!);
    if (current.status !== 'RUNNING' && current.status !== 'QUEUED')
      throw conflict(`dbt sync ${syncJobId} is already ${current.status}; only a queued or running sync can be cancelled`);
    // Written: the build of the generated branch is still running.
    const written = (await this.repo.syncById(row.id))!;
    const ended = await this.repo.update(row.id, { state: 'cancelled', finished_at: now }, ['written']);
    if (!ended) return this.view(written);
    if (written.build_id !== null) {
      await this.ctx.services.builds.cancel(principal, deploymentId, Number(written.build_id)).catch(() => {
        // It finished meanwhile; the branch goes all the same.
      });
    }
    if (written.branch_name) await this.ctx.services.dataModel.deleteBranch(principal.accountId, deploymentId, written.branch_name);
    const stages = endStages(
      written.stages,
      'cancelled',
      'Cancelled while the branch was building; the branch was deleted',
      now.toISOString(),
    );
    return this.view((await this.repo.update(row.id, { stages }, ['cancelled']))!);
  }

  /** The status view of a row, with its job and, once written, its build. */
  async view(row: DbtSyncRow): Promise<SyncStatusView> {
    const job = row.job_id === null ? undefined : await dbtSyncJob.find(this.ctx.db, Number(row.job_id));
    const build =
      row.state === 'written' && row.build_id !== null
        ? await this.ctx.services.builds.byId(row.account_id, Number(row.build_id))
        : undefined;
    return syncView(row, job, build);
  }

  private async sync(accountId: number, deploymentId: number, syncJobId: number): Promise<DbtSyncRow> {
    await this.deployment(accountId, deploymentId);
    const row = await this.repo.sync(accountId, deploymentId, syncJobId);
    if (!row) throw notFound(`dbt sync ${syncJobId} not found`);
    return row;
  }

  private async integration(accountId: number, deploymentId: number, forSync = false) {
    await this.deployment(accountId, deploymentId);
    const row = await this.repo.integration(accountId, deploymentId);
    if (!row) throw forSync ? badRequest(`${noIntegration(deploymentId).message}; connect one first`) : noIntegration(deploymentId);
    return row;
  }

  private async deployment(accountId: number, deploymentId: number): Promise<void> {
    if (!(await this.ctx.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }
}

const noIntegration = (deploymentId: number) =>
  notFound(`Deployment ${deploymentId} has no dbt integration (plinth dbt connect ${deploymentId} --repo <url>)`);
