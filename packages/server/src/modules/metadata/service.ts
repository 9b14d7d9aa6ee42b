import { demand } from '../../http/authorize.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { UserPrincipal } from '../../http/principal.js';
import { contextFor } from '../../pipeline/context.js';
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
    const deploymentId = input.deploymentId ?? (await this.onlyDeployment(principal, baseUrl));
    if (!(await this.services.deployments.find(principal.accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
    const { cubes } = await this.services.dataApi.meta(contextFor(principal), { deploymentId });
    return { deploymentId, cubes: select(cubes, input.selectors) };
  }

  /**
   * The one deployment the caller reaches (a key limited to deployments: among its own), as a
   * script written for the reference's MetadataRequest, which has no deploymentId, expects. With
   * several, guessing one would answer for the wrong model: the caller must name it. The route's
   * declaration checked no deployment then, so the permission is checked here on the one found.
   */
  private async onlyDeployment(principal: UserPrincipal, baseUrl: string): Promise<number> {
    const page = await this.services.deployments.list(principal, { first: 3 }, baseUrl);
    const [only, ...more] = page.items;
    if (!only) throw notFound('The account has no deployment you may read; create one or name deploymentId');
    if (more.length > 0) {
      const ids = page.items.map((d) => d.id).join(', ');
      throw badRequest(`deploymentId is required: you may read more than one deployment (${ids}${page.items.length > 2 ? ', …' : ''})`);
    }
    demand(principal, 'SchemaRead', { type: 'deployment', id: only.id }, 'read the data model');
    return only.id;
  }
}
