import type { Kysely } from 'kysely';
import { badRequest, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import type { Services } from '../module.js';
import { EnvironmentOps } from './environments.js';
import { DeploymentSecrets } from './secrets.js';
import { mintDataToken, type MintOptions } from './tokens.js';

export interface DeploymentTokenInput {
  securityContext?: Record<string, unknown>;
  expiresIn?: number;
  branch?: string;
}

/** Data API tokens of deployments: minting them, and the secrets the data API verifies them with. */
export class DeploymentTokenService {
  readonly secrets: DeploymentSecrets;
  readonly environments: EnvironmentOps;

  constructor(
    db: Kysely<Database>,
    box: SecretBox,
    private readonly services: Services,
  ) {
    this.secrets = new DeploymentSecrets(db, box);
    this.environments = new EnvironmentOps(db, box, this.secrets, services);
  }

  /**
   * `deploymentToken`: the route's declaration has checked the caller may reach the deployment.
   * With `branch`, the token is an environment token of that dev-mode branch (the data API serves
   * it that branch's dev-mode URL only); the branch is resolved as the data model resolves it, so
   * another credential's dev branch does not exist for the caller, and a shared branch is refused.
   */
  async deploymentToken(principal: Principal, deploymentId: number, input: DeploymentTokenInput): Promise<{ cubeApiToken: string }> {
    const { accountId } = principal;
    await this.assertDeployment(accountId, deploymentId);
    const options: MintOptions = { securityContext: input.securityContext, expiresIn: input.expiresIn };
    if (input.branch !== undefined) {
      const branch = await this.services.dataModel.target(principal, deploymentId, input.branch);
      if (branch.kind !== 'dev') {
        throw badRequest(
          `Branch ${branch.name} is not a dev-mode branch; a token for a branch opens a dev-mode branch of this credential (leave out branch for production)`,
        );
      }
      options.environment = String(branch.id);
    }
    const minted = await mintDataToken(this.secrets, accountId, deploymentId, options);
    return { cubeApiToken: minted.token };
  }

  async assertDeployment(accountId: number, deploymentId: number): Promise<void> {
    if (!(await this.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }
}
