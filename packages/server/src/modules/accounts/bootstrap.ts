import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import { accountBaseUrl } from '../../http/base-url.js';
import { API_KEY_PREFIX } from '../../http/credential-header.js';
import { hashCredential, randomBase62 } from '../../lib/secrets.js';
import type { Store } from '../../store/store.js';
import type { Services } from '../../services.js';

export interface BootstrapResult {
  created: boolean;
  baseUrl: string;
  tenant: string;
  apiKey?: string;
}

/**
 * On an empty store: the default account, its admin user and an unscoped admin API key. Servers
 * starting together race on the account's unique name; the loser finds it taken and does nothing.
 */
export async function bootstrap(store: Store, services: Services, config: Config): Promise<BootstrapResult> {
  const baseUrl = accountBaseUrl(config, { name: config.defaultTenant, custom_domain: null });
  const tenant = config.defaultTenant;
  const apiKey = config.bootstrapApiKey ?? `${API_KEY_PREFIX}${randomBase62()}`;

  const created = await store.db.transaction().execute(async (trx) => {
    const account = await trx
      .insertInto('account')
      .values({ name: tenant })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!account) return false;
    await trx.insertInto('tenant_settings').values({ account_id: account.id }).execute();
    const admin = await trx
      .insertInto('app_user')
      .values({ account_id: account.id, email: `admin@${tenant}.plinth.local`, display_name: 'Administrator', role: 'admin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('api_key')
      .values({
        account_id: account.id,
        user_id: admin.id,
        name: 'bootstrap',
        role: 'admin',
        deployment_ids: null,
        key_hash: hashCredential(apiKey),
        key_prefix: apiKey.slice(0, 8),
      })
      .execute();
    return true;
  });
  services.accounts.forgetCachedHosts();
  if (!created) return { created, baseUrl, tenant };

  await mkdir(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'bootstrap.json');
  await writeFile(file, `${JSON.stringify({ baseUrl, tenant, apiKey }, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { created, baseUrl, tenant, apiKey };
}
