import type { PlinthModule, ServiceContext } from '../module.js';
import { environmentRoutes } from './environment-routes.js';
import { environmentSchemas } from './environment-schemas.js';
import { deploymentTokenRoutes } from './routes.js';
import { deploymentTokenSchemas } from './schemas.js';
import { DeploymentTokenService } from './service.js';
import { dataTokenVerifier } from './verifier.js';

declare module '../module.js' {
  interface Services {
    deploymentTokens: DeploymentTokenService;
  }
}

export const deploymentTokensModule: PlinthModule = {
  name: 'deployment-tokens',
  tags: {
    Environments: 'Environments of a deployment (production, staging, development branches) and their tokens.',
  },
  services: {
    deploymentTokens: ({ db, secrets, services }: ServiceContext) => new DeploymentTokenService(db, secrets, services),
  },
  tables: ['deployment_api_secret', 'deployment_environment_token'],
  schemas: [...deploymentTokenSchemas, ...environmentSchemas],
  routes: async (app) => {
    await app.register(deploymentTokenRoutes);
    await app.register(environmentRoutes);
  },
  onReady: (app) => {
    app.credentialVerifiers.dataToken = dataTokenVerifier(app.services.deploymentTokens.secrets, () => app.services.embed);
  },
};
