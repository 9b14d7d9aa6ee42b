import { setErrorRenderer } from '../../http/error-handler.js';
import type { PlinthModule, ServiceContext } from '../module.js';
import { ScimService } from './service.js';
import { ScimBulkRequest, ScimBulkResponse } from './bulk.js';
import { ScimResourceType, ScimResourceTypeList, ScimSchema, ScimSchemaList, ScimServiceProviderConfig } from './discovery.js';
import { renderScimError } from './errors.js';
import { scimRoutes } from './routes.js';
import {
  ScimError,
  ScimGroup,
  ScimGroupList,
  ScimPatchOp,
  ScimResourceList,
  ScimSearchRequest,
  ScimUser,
  ScimUserList,
} from './schemas.js';

declare module '../module.js' {
  interface PlinthActions {
    ScimProvision: true;
  }
  interface Services {
    scim: ScimService;
  }
}

export const scimModule: PlinthModule = {
  name: 'scim',
  permissions: {
    ScimProvision: {
      description: 'Provision users and groups over SCIM 2.0 (SCIM tokens only).',
      kinds: ['scimToken'],
    },
  },
  tags: {
    SCIM: 'SCIM 2.0 (RFC 7643 and RFC 7644) users and groups, for identity providers such as Okta and Entra ID.',
  },
  services: { scim: ({ db, services }: ServiceContext) => new ScimService(db, services) },
  schemas: [
    ScimError,
    ScimUser,
    ScimGroup,
    ScimUserList,
    ScimGroupList,
    ScimPatchOp,
    ScimSearchRequest,
    ScimBulkRequest,
    ScimBulkResponse,
    ScimServiceProviderConfig,
    ScimResourceType,
    ScimSchema,
    ScimResourceTypeList,
    ScimSchemaList,
    ScimResourceList,
  ],
  routes: scimRoutes,
  onReady() {
    setErrorRenderer('scim', renderScimError);
  },
};
