import type { PlinthModule } from '../module.js';
import { resourcePolicyRoutes } from './routes.js';
import { resourcePolicySchemas } from './schemas.js';
import { ResourcePolicyService } from './service.js';
import { ContentAccess } from './content-access.js';

declare module '../module.js' {
  interface PlinthActions {
    PoliciesManage: true;
  }
  interface Services {
    resourcePolicies: ResourcePolicyService;
    /** Who may read and change workspace content (content-access.ts). */
    contentAccess: ContentAccess;
  }
}

/**
 * Resource policies of users and groups (issue 15, section 5 rule 5): what they may do on the
 * account and on each deployment. The credentials module loads them with each access token.
 */
export const resourcePoliciesModule: PlinthModule = {
  name: 'resource-policies',
  permissions: {
    PoliciesManage: {
      description:
        "Change the resource policies of users and groups (what they may do on the account and on each deployment), never beyond the caller's own. Needs a credential for every deployment.",
      roles: ['admin'],
      accountWide: true,
    },
  },
  tags: {
    'Resource Policies': 'What users and groups may do on the account and on each deployment (actions of resource policies).',
  },
  services: { resourcePolicies: (ctx) => new ResourcePolicyService(ctx), contentAccess: (ctx) => new ContentAccess(ctx.db) },
  tables: ['resource_policy'],
  schemas: resourcePolicySchemas,
  routes: resourcePolicyRoutes,
};
