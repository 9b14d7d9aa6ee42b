import { describe, expect, it } from 'vitest';
import { loadMigrations, migrationFiles } from './migration-files.js';

/**
 * The names stores in the field have recorded, in the order they were applied, before migrations
 * moved into the folders of the modules that own them. Finding them all, in this order, means an
 * upgraded store applies none of them again.
 */
const SHIPPED = [
  '0001_foundation',
  '0002_credential_notify',
  '0003_embed',
  '0004_scim',
  '0005_login',
  '0006_scim_emails_group_names',
  '0007_embed_lookup_notify',
  '0008_oauth_integration_notify',
  '0009_embed_page_indexes',
  '0010_account_disabled',
  '0011_rate_limits',
  '0012_scim_full_user',
  '0013_embed_sessions_cube',
  '0014_app_user_live_page',
  '0015_jobs',
  '0016_cache_triggers',
  '0017_data_model',
  '0018_deployment_tokens',
  '0019_deployment_settings',
  '0020_deployment_variables',
  '0021_engine_versions_run',
  '0022_data_api_serving_cache',
  '0023_permissions',
  '0024_dbt',
  '0025_github',
  '0026_ci_gate',
  '0027_workspace_content',
  '0028_account_admin',
  '0029_oidc_oauth_tokens',
  '0030_agents',
  '0031_github_credentials',
  '0032_dbt_private_repositories',
];

describe('migration files', () => {
  const files = migrationFiles();
  const names = files.map((file) => file.name);

  it('every migration a store may have applied is found, in the order it was applied, and comes before any newer one', () => {
    expect(names.slice(0, SHIPPED.length)).toEqual(SHIPPED);
  });

  it('no two share a number, whichever folders they are in', () => {
    const numbers = names.map((name) => name.slice(0, 4));
    expect(files.filter((_, i) => numbers.indexOf(numbers[i]!) !== i).map((file) => `${file.owner}/${file.name}`)).toEqual([]);
  });

  it('are applied in the order of their names', () => {
    expect(names).toEqual([...names].sort());
  });

  it("are read from the shared folder and from the modules' own folders", () => {
    const owners = new Map(files.map((file) => [file.name, file.owner]));
    expect(owners.get('0001_foundation')).toBe('store');
    expect(owners.get('0024_dbt')).toBe('dbt');
    expect(owners.get('0022_data_api_serving_cache')).toBe('data-api');
  });

  it('each exports the up the migrator runs', async () => {
    const migrations = await loadMigrations(files);
    expect(Object.keys(migrations)).toEqual(names);
    expect(Object.entries(migrations).filter(([, migration]) => typeof migration.up !== 'function')).toEqual([]);
  });
});
