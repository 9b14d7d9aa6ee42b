import type { Migration } from 'kysely';
import * as foundation from './0001_foundation.js';
import * as credentialNotify from './0002_credential_notify.js';
import * as embed from './0003_embed.js';
import * as scim from './0004_scim.js';
import * as login from './0005_login.js';
import * as scimEmailsGroupNames from './0006_scim_emails_group_names.js';
import * as embedLookupNotify from './0007_embed_lookup_notify.js';
import * as oauthIntegrationNotify from './0008_oauth_integration_notify.js';
import * as embedPageIndexes from './0009_embed_page_indexes.js';
import * as accountDisabled from './0010_account_disabled.js';
import * as rateLimits from './0011_rate_limits.js';
import * as scimFullUser from './0012_scim_full_user.js';
import * as embedSessionsCube from './0013_embed_sessions_cube.js';
import * as appUserLivePage from './0014_app_user_live_page.js';
import * as jobs from './0015_jobs.js';
import * as cacheTriggers from './0016_cache_triggers.js';
import * as dataModel from './0017_data_model.js';
import * as deploymentTokens from './0018_deployment_tokens.js';
import * as deploymentSettings from './0019_deployment_settings.js';
import * as deploymentVariables from './0020_deployment_variables.js';
import * as engineVersionsRun from './0021_engine_versions_run.js';
import * as dataApiServingCache from './0022_data_api_serving_cache.js';
import * as permissions from './0023_permissions.js';
import * as dbt from './0024_dbt.js';
import * as github from './0025_github.js';
import * as ciGate from './0026_ci_gate.js';
import * as workspaceContent from './0027_workspace_content.js';
import * as accountAdmin from './0028_account_admin.js';
import * as oidcOAuthTokens from './0029_oidc_oauth_tokens.js';
import * as agents from './0030_agents.js';
import * as githubCredentials from './0031_github_credentials.js';
import * as dbtPrivateRepositories from './0032_dbt_private_repositories.js';
import * as jobSchedules from './0033_job_schedules.js';

/**
 * Every migration, applied in the order of its name. A new migration takes the next number after
 * the highest one here, whichever module it belongs to: a lower number would sort before
 * migrations a store has already applied, and the migrator refuses to start on such a store.
 * Never edit a migration that has shipped; add a new one.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_credential_notify': credentialNotify,
  '0003_embed': embed,
  '0004_scim': scim,
  '0005_login': login,
  '0006_scim_emails_group_names': scimEmailsGroupNames,
  '0007_embed_lookup_notify': embedLookupNotify,
  '0008_oauth_integration_notify': oauthIntegrationNotify,
  '0009_embed_page_indexes': embedPageIndexes,
  '0010_account_disabled': accountDisabled,
  '0011_rate_limits': rateLimits,
  '0012_scim_full_user': scimFullUser,
  '0013_embed_sessions_cube': embedSessionsCube,
  '0014_app_user_live_page': appUserLivePage,
  '0015_jobs': jobs,
  '0016_cache_triggers': cacheTriggers,
  '0017_data_model': dataModel,
  '0018_deployment_tokens': deploymentTokens,
  '0019_deployment_settings': deploymentSettings,
  '0020_deployment_variables': deploymentVariables,
  '0021_engine_versions_run': engineVersionsRun,
  '0022_data_api_serving_cache': dataApiServingCache,
  '0023_permissions': permissions,
  '0024_dbt': dbt,
  '0025_github': github,
  '0026_ci_gate': ciGate,
  '0027_workspace_content': workspaceContent,
  '0028_account_admin': accountAdmin,
  '0029_oidc_oauth_tokens': oidcOAuthTokens,
  '0030_agents': agents,
  '0031_github_credentials': githubCredentials,
  '0032_dbt_private_repositories': dbtPrivateRepositories,
  '0033_job_schedules': jobSchedules,
};
