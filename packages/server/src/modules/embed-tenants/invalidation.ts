import type { CacheDeclaration } from '../../store/cache-declaration.js';
import type { ModuleCache } from '../module.js';

/**
 * What can make a remembered lookup wrong: a deployment, a group or attribute name going away or
 * changing, and any change of the settings (a new account's settings row included). Only what
 * exists is remembered, so a new deployment, group or attribute changes nothing.
 */
export const EMBED_LOOKUPS_CACHE: CacheDeclaration = {
  channel: 'plinth_embed_lookups',
  tables: {
    deployment: { updates: ['id', 'account_id'] },
    tenant_settings: { updates: ['use_creator_mode', 'show_dashboard_chat', 'bulk_action_limit', 'embedding_enabled'], inserts: true },
    user_group: { updates: ['id', 'name', 'account_id'] },
    user_attribute: { updates: ['id', 'name', 'type', 'account_id'] },
  },
};

/** The embedding lookups forget an account the moment a deployment, setting or catalog name changes. */
export const embedTenantCaches: ModuleCache[] = [{ declaration: EMBED_LOOKUPS_CACHE, cache: (services) => services.embedTenants.lookups }];
