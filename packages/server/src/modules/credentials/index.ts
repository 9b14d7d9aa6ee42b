import type { PlinthModule, ServiceContext } from '../module.js';
import { CredentialService } from './service.js';
import { credentialCaches } from './invalidation.js';
import { credentialRoutes } from './routes.js';
import { credentialSchemas } from './schemas.js';
import { credentialRetention } from './retention.js';

declare module '../module.js' {
  interface PlinthActions {
    ApiKeysManage: true;
    ScimTokensManage: true;
  }
  interface Services {
    credentials: CredentialService;
  }
}

export const credentialsModule: PlinthModule = {
  name: 'credentials',
  permissions: {
    ApiKeysManage: {
      description: 'Create, list and revoke API keys, never one that reaches more than the calling credential.',
      roles: ['admin'],
      keys: true,
    },
    ScimTokensManage: {
      description: 'Create, list and revoke SCIM tokens. Needs a credential for every deployment.',
      roles: ['admin'],
      accountWide: true,
    },
  },
  tags: {
    'API Keys': 'API keys: credentials for scripts and servers, scoped by role and deployments.',
    'SCIM Tokens': 'Bearer tokens that identity providers use for SCIM provisioning.',
  },
  services: { credentials: ({ db }: ServiceContext) => new CredentialService(db) },
  tables: ['api_key', 'access_token', 'scim_token'],
  retention: credentialRetention,
  // Read when the app registers schemas, after every module (and so every permission) is loaded.
  get schemas() {
    return credentialSchemas();
  },
  routes: credentialRoutes,
  caches: credentialCaches,
  onReady(app) {
    const { verifiers } = app.services.credentials;
    app.credentialVerifiers.apiKey = verifiers.apiKey;
    app.credentialVerifiers.accessToken = verifiers.accessToken;
    app.credentialVerifiers.scimToken = verifiers.scimToken;
  },
};
