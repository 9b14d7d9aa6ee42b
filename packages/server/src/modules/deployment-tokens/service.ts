import type { Kysely } from 'kysely';
import { notFound } from '../../http/errors.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import type { Services } from '../module.js';
import { DeploymentSecrets } from './secrets.js';
import { mintDataToken, type MintOptions } from './tokens.js';

/** Data API tokens of deployments: minting them, and the secrets the data API verifies them with. */
export class DeploymentTokenService {
  readonly secrets: DeploymentSecrets;

  constructor(
    db: Kysely<Database>,
    box: SecretBox,
    private readonly services: Services,
  ) {
    this.secrets = new DeploymentSecrets(db, box);
  }

  /** `deploymentToken`: the route's declaration has checked the caller may reach the deployment. */
  async deploymentToken(accountId: number, deploymentId: number, options: MintOptions): Promise<{ cubeApiToken: string }> {
    await this.assertDeployment(accountId, deploymentId);
    const minted = await mintDataToken(this.secrets, accountId, deploymentId, options);
    return { cubeApiToken: minted.token };
  }

  async assertDeployment(accountId: number, deploymentId: number): Promise<void> {
    if (!(await this.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }
}
