import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../../config.js';
import { accountBaseUrl } from '../../http/base-url.js';
import type { Store } from '../../store/store.js';
import type { Services } from '../../services.js';
import { createAccountWithAdmin, newApiKeySecret } from './provision.js';

export interface BootstrapResult {
  created: boolean;
  baseUrl: string;
  tenant: string;
  /** Only when this start generated it: a key the operator supplied is theirs already and never echoed. */
  apiKey?: string;
}

/** PLINTH_TENANT names no account on a store that has some: the server refuses to start. */
export class UnknownTenantError extends Error {}

/**
 * On an empty store: the default account, its admin user and an unscoped admin API key. Servers
 * starting together race on the account's unique name; the loser finds it taken and does nothing.
 * On a store that has accounts, PLINTH_TENANT must name one of them: a typo must not quietly
 * create an account with an admin key nobody asked for (`plinth-server accounts create` does that).
 */
export async function bootstrap(store: Store, services: Services, config: Config): Promise<BootstrapResult> {
  const baseUrl = accountBaseUrl(config, { name: config.defaultTenant, custom_domain: null });
  const tenant = config.defaultTenant;

  // The default account first, so a server that lost the race to create it finds it here.
  const names = await store.db
    .selectFrom('account')
    .select('name')
    .orderBy(sql`name = ${tenant}`, 'desc')
    .orderBy('id')
    .limit(6)
    .execute();
  if (names[0]?.name === tenant) return { created: false, baseUrl, tenant };
  if (names.length > 0) {
    const known =
      names
        .slice(0, 5)
        .map((n) => n.name)
        .join(', ') + (names.length > 5 ? ', …' : '');
    throw new UnknownTenantError(
      `PLINTH_TENANT "${tenant}" names no account in this store (it has ${known}); ` +
        `create it with \`plinth-server accounts create ${tenant}\` or set PLINTH_TENANT to an existing account`,
    );
  }

  const apiKey = config.bootstrapApiKey ?? newApiKeySecret();
  const created = await createAccountWithAdmin(store.db, tenant, apiKey);
  services.accounts.forgetAll();
  if (!created) return { created, baseUrl, tenant };
  if (config.bootstrapApiKey) return { created, baseUrl, tenant };

  await mkdir(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'bootstrap.json');
  await writeFile(file, `${JSON.stringify({ baseUrl, tenant, apiKey }, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { created, baseUrl, tenant, apiKey };
}
