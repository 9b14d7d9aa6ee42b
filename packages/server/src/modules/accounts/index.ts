import type { PlinthModule } from '../module.js';
import { accountCaches } from './invalidation.js';

/** Accounts (tenants): no routes of their own (the operator's CLI creates and disables them), but the host cache. */
export const accountsModule: PlinthModule = { name: 'accounts', caches: accountCaches };
