import { deploymentScope } from '../../http/authorize.js';
import { toIso, toIsoOrNull } from '../../http/common-schemas.js';
import { ApiError, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { transactionWithRetry } from '../../store/transaction.js';
import type { ServiceContext } from '../module.js';
import { GithubClient } from './client.js';
import { commitModel, importConnection, importMessage } from './importer.js';
import { githubImportJob, type ImportJobPayload } from './job.js';
import { GithubConnectionRepo, type GithubConnectionRow } from './repo.js';
import { checkSource, type ConnectInput } from './rules.js';
import { DEFAULT_DIRECTORY, fetchModel, withoutCredentials, type ConnectionSource } from './source.js';
import { parsePayload, readPush, verifySignature, type WebhookDelivery } from './webhook.js';

/**
 * A deployment's GitHub connection: the App's view of GitHub (installations, repositories,
 * branches) and the import of a repository's data model onto the deploy branch, at connect time
 * (synchronously: a source that cannot be read changes nothing) and after each push or sync (job).
 */
export class GithubService {
  readonly client: GithubClient;
  private readonly repo: GithubConnectionRepo;

  constructor(private readonly ctx: ServiceContext) {
    this.client = new GithubClient(ctx.config.github);
    this.repo = new GithubConnectionRepo(ctx.db);
  }

  async status(principal: Principal) {
    const rows = await this.repo.list(principal.accountId, deploymentScope(principal));
    let app = null;
    let error: string | null = null;
    if (this.client.configured) {
      try {
        const found = await this.client.getApp();
        app = { id: found.id, slug: found.slug, name: found.name, owner: found.owner?.login ?? null, htmlUrl: found.html_url };
      } catch (failure) {
        if (!(failure instanceof ApiError)) throw failure;
        error = failure.message;
      }
    }
    return {
      configured: this.client.configured,
      apiUrl: this.client.apiUrl,
      webhookConfigured: this.ctx.config.github.webhookSecret !== undefined,
      app,
      error,
      connections: rows.map((row) => this.view(row)),
    };
  }

  async installations() {
    const items = await this.client.listInstallations();
    return {
      items: items.map((i) => ({
        id: i.id,
        account: i.account?.login ?? null,
        accountType: i.account?.type ?? null,
        repositorySelection: i.repository_selection,
        htmlUrl: i.html_url,
        suspended: Boolean(i.suspended_at),
      })),
    };
  }

  async repositories(installationId: number) {
    const items = await this.client.listRepositories(installationId);
    return {
      items: items.map((r) => ({
        id: r.id,
        fullName: r.full_name,
        name: r.name,
        private: r.private,
        defaultBranch: r.default_branch,
        htmlUrl: r.html_url,
        cloneUrl: r.clone_url,
      })),
    };
  }

  async branches(installationId: number, fullName: string) {
    const items = await this.client.listBranches(installationId, fullName);
    return { items: items.map((b) => ({ name: b.name, commitSha: b.commit.sha, protected: b.protected })) };
  }

  /**
   * Imports the branch's data model onto the deploy branch in one commit with a build, records the
   * connection and sets the deployment's creationMethod, all in one transaction after the clone
   * succeeded: any failure before leaves the deployment as it was.
   */
  async connect(principal: Principal, deploymentId: number, input: ConnectInput) {
    const accountId = principal.accountId;
    await this.assertDeployment(accountId, deploymentId);
    const source = checkSource(input, this.client.configured);
    const fetched = await fetchModel(this.client, this.ctx.egress, source);
    return transactionWithRetry(this.ctx.db, async () => {
      const committed = await commitModel(
        this.ctx,
        principal,
        accountId,
        deploymentId,
        fetched,
        importMessage(source, fetched.commitSha),
        false,
      );
      const sealed = source.credentials === null ? null : this.ctx.secrets.seal(JSON.stringify(source.credentials));
      const row = await this.repo.upsert(accountId, deploymentId, source, sealed, {
        commitSha: fetched.commitSha,
        buildId: committed.buildId,
      });
      await this.ctx.services.deployments.update(accountId, deploymentId, { creationMethod: creationMethodOf(source) }, '');
      return { connection: this.view(row), commitSha: fetched.commitSha, ...committed, files: fetched.files.size };
    });
  }

  async get(accountId: number, deploymentId: number) {
    return this.view(await this.row(accountId, deploymentId));
  }

  /** The imported files stay on the deploy branch: disconnecting only stops imports. */
  async disconnect(accountId: number, deploymentId: number): Promise<void> {
    await this.assertDeployment(accountId, deploymentId);
    if (!(await this.repo.delete(accountId, deploymentId))) throw noConnection(deploymentId);
  }

  async sync(accountId: number, deploymentId: number) {
    await this.row(accountId, deploymentId);
    const job = await this.enqueue({ accountId, deploymentId, reason: 'sync' });
    return { deploymentId, jobId: job.id, queued: job.created };
  }

  /** The job's work (see importer.ts). */
  runImport(payload: ImportJobPayload, signal?: AbortSignal) {
    return importConnection(this.ctx, this.client, this.repo, payload.accountId, payload.deploymentId, signal);
  }

  /** A webhook delivery: verified first, then a push to a connected branch queues an import per connection. */
  async webhook(delivery: WebhookDelivery) {
    verifySignature(this.ctx.config.github.webhookSecret, delivery);
    const event = delivery.event ?? '';
    const base = { event, delivery: delivery.delivery ?? null };
    const payload = parsePayload(delivery);
    if (event === 'ping') return { code: 200, body: { ...base, status: 'pong' as const, reason: null, imports: [] } };
    const ignored = (reason: string) => ({ code: 202, body: { ...base, status: 'ignored' as const, reason, imports: [] } });
    if (event !== 'push') return ignored(`Event "${event || '(none)'}" is not one Plinth acts on; only push and ping are`);
    const push = readPush(payload);
    if (!push.ref.startsWith('refs/heads/')) return ignored(`${push.ref} is not a branch; only pushes to branches are imported`);
    const branch = push.ref.slice('refs/heads/'.length);
    if (push.deleted) return ignored(`Branch ${branch} was deleted; connections keep their last import`);
    const rows = await this.repo.matchPush({ installationId: push.installationId, fullName: push.fullName, urls: push.urls, branch });
    if (rows.length === 0)
      return ignored(`No deployment is connected to ${push.fullName ?? push.urls[0] ?? 'this repository'} at branch ${branch}`);
    const imports = [];
    for (const row of rows) {
      const job = await this.enqueue({ accountId: row.account_id, deploymentId: row.deployment_id, reason: 'push' });
      imports.push({ deploymentId: row.deployment_id, jobId: job.id });
    }
    return { code: 202, body: { ...base, status: 'queued' as const, reason: null, imports } };
  }

  private enqueue(payload: ImportJobPayload) {
    return githubImportJob.enqueue(this.ctx.db, payload, { accountId: payload.accountId, dedupeKey: `deployment:${payload.deploymentId}` });
  }

  private async row(accountId: number, deploymentId: number): Promise<GithubConnectionRow> {
    await this.assertDeployment(accountId, deploymentId);
    const row = await this.repo.find(accountId, deploymentId);
    if (!row) throw noConnection(deploymentId);
    return row;
  }

  private async assertDeployment(accountId: number, deploymentId: number) {
    if (!(await this.ctx.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }

  private view(row: GithubConnectionRow) {
    const installationId = row.installation_id === null ? null : Number(row.installation_id);
    return {
      deploymentId: row.deployment_id,
      repository: withoutCredentials(row.repository),
      installationId,
      branch: row.branch,
      directory: row.directory === '' ? '.' : (row.directory ?? DEFAULT_DIRECTORY),
      cloneUrl: cloneUrlOf(this.client.apiUrl, { installationId, repository: row.repository }),
      lastCommitSha: row.last_commit_sha,
      lastBuildId: row.last_build_id === null ? null : Number(row.last_build_id),
      lastImportedAt: toIsoOrNull(row.last_imported_at),
      lastError: row.last_error,
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    };
  }
}

const noConnection = (deploymentId: number) => notFound(`Deployment ${deploymentId} has no GitHub connection`);

/** The deployments module's names: an ssh URL is `ssh`, anything else cloned from a repository `github`. */
function creationMethodOf(source: ConnectionSource): 'github' | 'ssh' {
  return source.installationId === null && /^(ssh:\/\/|[^/:@]+@[^/:]+:)/.test(source.repository) ? 'ssh' : 'github';
}

/**
 * Where an installation's repository is cloned from, without asking GitHub: github.com for the
 * public API, the Enterprise host (the API URL without `/api/v3`) otherwise.
 */
function cloneUrlOf(apiUrl: string, source: Pick<ConnectionSource, 'installationId' | 'repository'>): string {
  if (source.installationId === null) return withoutCredentials(source.repository);
  const api = new URL(apiUrl);
  const host =
    api.hostname === 'api.github.com'
      ? 'https://github.com'
      : `${api.origin}${api.pathname.replace(/\/api\/v3\/?$/, '').replace(/\/+$/, '')}`;
  return `${host}/${source.repository}.git`;
}
