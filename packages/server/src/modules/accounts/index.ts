import type { PlinthModule, ServiceContext } from '../module.js';
import { accountCaches } from './invalidation.js';
import { AccountService } from './service.js';

declare module '../module.js' {
  interface PlinthActions {
    AccountRead: true;
    AccountManage: true;
  }
  interface Services {
    accounts: AccountService;
  }
}

/** Accounts (tenants): no routes of their own (the operator's CLI creates and disables them), but the host cache. */
export const accountsModule: PlinthModule = {
  name: 'accounts',
  permissions: {
    AccountRead: {
      description:
        'Read the account: its users, groups, user attributes and values, tenant settings, OAuth integrations, and the calling credential.',
      roles: ['member', 'admin'],
      keys: true,
    },
    AccountManage: {
      description:
        "Change the account's directory and settings: new users and users' names, groups, user attributes and values, tenant settings, embed tenants.",
      roles: ['admin'],
    },
  },
  services: { accounts: ({ db }: ServiceContext) => new AccountService(db) },
  caches: accountCaches,
  tables: ['instance_secret', 'account'],
};
