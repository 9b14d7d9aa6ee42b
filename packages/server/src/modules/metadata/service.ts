import { demand } from '../../http/authorize.js';
import { notFound } from '../../http/errors.js';
import type { UserPrincipal } from '../../http/principal.js';
import type { Services } from '../module.js';
import type { MetadataRequestInput } from './schemas.js';
import { select } from './select.js';

/**
 * getMetadata: the cubes, views and members of a deployment's current build (the deploy branch's
 * latest successful build) as the data API's meta shows them to the calling user, whose groups
 * and attribute values feed the model's access policies; then only what the selectors name.
 */
export class MetadataService {
  constructor(private readonly services: Pick<Services, 'deployments' | 'dataApi'>) {}

  async metadata(principal: UserPrincipal, input: MetadataRequestInput, baseUrl: string) {
    const deploymentId = input.deploymentId ?? (await this.firstDeployment(principal, baseUrl));
    if (!(await this.services.deployments.find(principal.accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
    const served = await this.services.dataApi.serveModelAsUser(principal, deploymentId);
    const { cubes } = this.services.dataApi.meta(served);
    return { deploymentId, cubes: select(cubes, input.selectors) };
  }

  /**
   * The lowest id the caller reaches (a key limited to deployments: among its own). The route's
   * declaration checked no deployment then, so the permission is checked here on the one chosen.
   */
  private async firstDeployment(principal: UserPrincipal, baseUrl: string): Promise<number> {
    const page = await this.services.deployments.list(principal, { first: 1 }, baseUrl);
    const first = page.items[0];
    if (!first) throw notFound('The account has no deployment you may read; create one or name deploymentId');
    demand(principal, 'SchemaRead', { type: 'deployment', id: first.id }, 'read the data model');
    return first.id;
  }
}
