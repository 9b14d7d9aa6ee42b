import type { Config } from './config.js';
import { SecretBox } from './lib/secrets.js';
import type { Store } from './store/store.js';
import { AccountService } from './modules/accounts/service.js';
import { CredentialService } from './modules/credentials/service.js';
import { DeploymentService } from './modules/deployments/service.js';
import { OAuthIntegrationService } from './modules/oauth-integrations/service.js';
import { loadMasterKey } from './modules/accounts/master-key.js';

/**
 * Every domain service, built once per process from the store and the config. Routes reach them
 * through `app.services`; services reach each other only through this object, never each other's
 * tables.
 */
export interface Services {
  accounts: AccountService;
  credentials: CredentialService;
  deployments: DeploymentService;
  oauthIntegrations: OAuthIntegrationService;
}

export async function createServices(store: Store, config: Config): Promise<Services> {
  const secrets = new SecretBox(await loadMasterKey(store.db, config));
  const accounts = new AccountService(store.db);
  const credentials = new CredentialService(store.db);
  return {
    accounts,
    credentials,
    deployments: new DeploymentService(store.db),
    oauthIntegrations: new OAuthIntegrationService(store.db, secrets),
  };
}
