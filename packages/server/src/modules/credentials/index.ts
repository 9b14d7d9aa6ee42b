import type { PlinthModule } from '../module.js';
import { credentialCaches } from './invalidation.js';
import { credentialRoutes } from './routes.js';
import { credentialSchemas } from './schemas.js';

export const credentialsModule: PlinthModule = {
  name: 'credentials',
  schemas: credentialSchemas,
  routes: credentialRoutes,
  caches: credentialCaches,
  onReady(app) {
    const { verifiers } = app.services.credentials;
    app.credentialVerifiers.apiKey = verifiers.apiKey;
    app.credentialVerifiers.accessToken = verifiers.accessToken;
    app.credentialVerifiers.scimToken = verifiers.scimToken;
  },
};
