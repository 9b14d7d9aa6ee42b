import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';

export const embedTenantRetention: RetentionRule[] = [
  {
    // Ephemeral external users end at expires_at: lists hide them and a new session for the same
    // externalId recreates the user, so the rows only take space. Memberships and values cascade.
    table: 'external_user',
    key: 'id',
    expired: (now) => sql`expires_at <= ${new Date(now)}`,
  },
];
