import type { Migration } from 'kysely';
import * as foundation from './0001_foundation.js';
import * as credentialNotify from './0002_credential_notify.js';
import * as embed from './0200_embed.js';
import * as scim from './0300_scim.js';
import * as login from './0400_login.js';

/**
 * Every migration, in order. Names sort in apply order; a module adds its own file and one line
 * here. Never edit a migration that has shipped: add a new one.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_credential_notify': credentialNotify,
  '0200_embed': embed,
  '0300_scim': scim,
  '0400_login': login,
};
