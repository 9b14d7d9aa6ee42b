import type { PlinthModule, ServiceContext } from '../module.js';
import { accountCaches } from './invalidation.js';
import { AccountService } from './service.js';

declare module '../module.js' {
  interface Services {
    accounts: AccountService;
  }
}

/** Accounts (tenants): no routes of their own (the operator's CLI creates and disables them), but the host cache. */
export const accountsModule: PlinthModule = {
  name: 'accounts',
  services: { accounts: ({ db }: ServiceContext) => new AccountService(db) },
  caches: accountCaches,
  tables: ['instance_secret', 'account'],
};
