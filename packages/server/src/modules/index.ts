import type { PlinthModule } from './module.js';
import { rateLimitsModule } from './rate-limits/index.js';
import { accountsModule } from './accounts/index.js';
import { credentialsModule } from './credentials/index.js';
import { deploymentsModule } from './deployments/index.js';
import { healthModule } from './health/index.js';
import { oauthIntegrationsModule } from './oauth-integrations/index.js';
import { specModule } from './spec/index.js';
import { usersModule } from './users/index.js';
import { groupsModule } from './groups/index.js';
import { userAttributesModule } from './user-attributes/index.js';
import { tenantSettingsModule } from './tenant-settings/index.js';
import { loginModule } from './login/index.js';
import { telemetryModule } from './telemetry/index.js';
import { scimModule } from './scim/index.js';
import { embedModule } from './embed/index.js';
import { embedTenantsModule } from './embed-tenants/index.js';
import { retentionModule } from './retention/index.js';
import { dataModelModule } from './data-model/index.js';
import { buildsModule } from './builds/index.js';
import { modelUploadsModule } from './model-uploads/index.js';
import { deploymentLogsModule } from './deployment-logs/index.js';
import { deploymentTokensModule } from './deployment-tokens/index.js';
import { deploymentVariablesModule } from './deployment-variables/index.js';
import { dataApiModule } from './data-api/index.js';
import { resourcePoliciesModule } from './resource-policies/index.js';
import { dbtModule } from './dbt/index.js';
import { ciGateModule } from './ci-gate/index.js';
import { githubModule } from './github/index.js';
import { foldersModule } from './folders/index.js';
import { reportsModule } from './reports/index.js';
import { workbooksModule } from './workbooks/index.js';
import { workspaceModule } from './workspace/index.js';
import { appThemeModule } from './app-theme/index.js';
import { oidcTokenConfigsModule } from './oidc-token-configs/index.js';
import { userOAuthTokensModule } from './user-oauth-tokens/index.js';
import { agentsModule } from './agents/index.js';
import { aiEngineerModule } from './ai-engineer/index.js';
import { metadataModule } from './metadata/index.js';

/**
 * Every domain module the server serves. A new module adds one line here; its services, routes,
 * caches and tables come with it (module.ts).
 */
export const modules: PlinthModule[] = [
  healthModule,
  specModule,
  accountsModule,
  rateLimitsModule,
  credentialsModule,
  deploymentsModule,
  oauthIntegrationsModule,
  usersModule,
  groupsModule,
  userAttributesModule,
  tenantSettingsModule,
  loginModule,
  telemetryModule,
  scimModule,
  embedModule,
  embedTenantsModule,
  retentionModule,
  dataModelModule,
  buildsModule,
  modelUploadsModule,
  deploymentLogsModule,
  deploymentTokensModule,
  deploymentVariablesModule,
  dataApiModule,
  resourcePoliciesModule,
  dbtModule,
  ciGateModule,
  githubModule,
  foldersModule,
  reportsModule,
  workbooksModule,
  workspaceModule,
  appThemeModule,
  oidcTokenConfigsModule,
  userOAuthTokensModule,
  agentsModule,
  aiEngineerModule,
  metadataModule,
];
