import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';
import { PURGE_GRACE_MS } from '../login/public.js';

export const credentialRetention: RetentionRule[] = [
  {
    // A revoked token with a refresh token stays until the refresh expires: replaying a rotated
    // refresh token must still be recognised, and revokes its whole login session.
    table: 'access_token',
    key: 'id',
    expired: (now) => sql`coalesce(refresh_expires_at, expires_at) < ${new Date(now - PURGE_GRACE_MS)}`,
  },
  {
    table: 'access_token',
    key: 'id',
    expired: (now) => sql`revoked_at < ${new Date(now - PURGE_GRACE_MS)} and refresh_token_hash is null`,
  },
];
