import type { Static } from '@sinclair/typebox';
import { toIso } from '../../http/common-schemas.js';
import { badRequest, notFound } from '../../http/errors.js';
import { transactionWithRetry } from '../../store/transaction.js';
import type { ServiceContext } from '../module.js';
import { DEFAULT_BRANCH } from '../data-model/public.js';
import type { DeploymentVariables, WarehouseConfig } from './public.js';
import { DeploymentVariableRepo, type DeploymentVariableRow } from './repo.js';
import { checkName, checkValue, isSecret, MASKED, MAX_VARIABLES } from './rules.js';
import type { DeploymentVariable, SetDeploymentVariablesBody } from './schemas.js';
import { warehouseFromVariables } from './warehouse.js';

export type DeploymentVariableView = Static<typeof DeploymentVariable>;
/** What the build queue records as the reason for a rebuild after a change. */
export const REBUILD_TRIGGER = 'variables';

/**
 * A deployment's environment variables. Every change is checked as a whole (the warehouse
 * configuration the variables would make must be valid), under a lock on the deployment row, and
 * queues a rebuild of the deploy branch's head in the same transaction: the model may read them.
 */
export class DeploymentVariableService implements DeploymentVariables {
  private readonly repo: DeploymentVariableRepo;

  constructor(private readonly ctx: ServiceContext) {
    this.repo = new DeploymentVariableRepo(ctx.db);
  }

  async list(accountId: number, deploymentId: number): Promise<{ items: DeploymentVariableView[] }> {
    await this.assertDeployment(accountId, deploymentId);
    return { items: (await this.repo.list(deploymentId)).map((row) => this.toView(row)) };
  }

  async set(accountId: number, deploymentId: number, input: Static<typeof SetDeploymentVariablesBody>) {
    const seen = new Set<string>();
    for (const { name, value } of input.variables) {
      checkName(name);
      checkValue(name, value);
      if (seen.has(name)) throw badRequest(`Variable ${name} is given more than once`);
      seen.add(name);
    }
    return this.change(accountId, deploymentId, (current) => {
      const next = new Map(current);
      const changed = input.variables.filter(({ name, value, secret }) => {
        const before = current.get(name);
        return before?.value !== value || before.secret !== isSecret(name, secret);
      });
      for (const { name, value, secret } of changed) next.set(name, { value, secret: isSecret(name, secret) });
      return { next, write: () => this.upsert(accountId, deploymentId, changed) };
    });
  }

  async unset(accountId: number, deploymentId: number, name: string): Promise<void> {
    checkName(name);
    await this.change(accountId, deploymentId, (current) => {
      if (!current.has(name)) throw notFound(`Variable ${name} not found`);
      const next = new Map(current);
      next.delete(name);
      return { next, write: async () => void (await this.repo.delete(deploymentId, name)) };
    });
  }

  async warehouseConfig(accountId: number, deploymentId: number): Promise<WarehouseConfig> {
    await this.assertDeployment(accountId, deploymentId);
    return warehouseFromVariables(values(this.open(await this.repo.list(deploymentId))));
  }

  /**
   * Runs one change: `plan` sees the current variables and says what they become and how to write
   * that; the result is validated before anything is written, and a real change queues a rebuild.
   */
  private change(
    accountId: number,
    deploymentId: number,
    plan: (current: Variables) => { next: Variables; write: () => Promise<unknown> },
  ) {
    return transactionWithRetry(this.ctx.db, async () => {
      // Every write takes this lock first, so two changes never each check a combination the other breaks.
      if (!(await this.ctx.services.deployments.lock(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
      const current = this.open(await this.repo.list(deploymentId));
      const { next, write } = plan(current);
      if (next.size > MAX_VARIABLES) throw badRequest(`A deployment holds at most ${MAX_VARIABLES} variables`);
      warehouseFromVariables(values(next));
      if (!sameVariables(current, next)) {
        await write();
        await this.queueRebuild(accountId, deploymentId);
      }
      return { items: (await this.repo.list(deploymentId)).map((row) => this.toView(row)) };
    });
  }

  private upsert(accountId: number, deploymentId: number, changed: Static<typeof SetDeploymentVariablesBody>['variables']) {
    if (changed.length === 0) return Promise.resolve();
    return this.repo.upsert(
      changed.map(({ name, value, secret }) => ({
        account_id: accountId,
        deployment_id: deploymentId,
        name,
        value_sealed: this.ctx.secrets.seal(value),
        secret: isSecret(name, secret),
      })),
    );
  }

  /** The deploy branch is what production serves; it is created (empty) if the model has none yet. */
  private async queueRebuild(accountId: number, deploymentId: number) {
    const branch = await this.ctx.services.dataModel.branch(accountId, deploymentId, DEFAULT_BRANCH);
    await this.ctx.services.builds.queueBuild({
      accountId,
      deploymentId,
      branchName: branch.name,
      commitId: Number(branch.head_commit_id),
      trigger: REBUILD_TRIGGER,
    });
  }

  private async assertDeployment(accountId: number, deploymentId: number) {
    if (!(await this.ctx.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }

  private open(rows: DeploymentVariableRow[]): Variables {
    return new Map(rows.map((row) => [row.name, { value: this.ctx.secrets.open(row.value_sealed), secret: row.secret }]));
  }

  private toView(row: DeploymentVariableRow): DeploymentVariableView {
    // A secret is never unsealed for a listing.
    const value = row.secret ? MASKED : this.ctx.secrets.open(row.value_sealed);
    return { name: row.name, value, secret: row.secret, updatedAt: toIso(row.updated_at) };
  }
}

type Variables = Map<string, { value: string; secret: boolean }>;

const values = (variables: Variables) => new Map([...variables].map(([name, { value }]) => [name, value]));

function sameVariables(a: Variables, b: Variables): boolean {
  if (a.size !== b.size) return false;
  for (const [name, { value, secret }] of a) {
    const other = b.get(name);
    if (other?.value !== value || other.secret !== secret) return false;
  }
  return true;
}
