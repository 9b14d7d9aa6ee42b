import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';
import { TOKEN_LIFETIME_SECONDS } from './tokens.js';

const DAY_MS = 24 * 3600_000;

/** Embed sessions stay listed (the audit list) this long after the last token they issued expired. */
export const EMBED_SESSION_RETENTION_MS = 30 * DAY_MS;

export const embedRetention: RetentionRule[] = [
  {
    // A token minted from a session lives TOKEN_LIFETIME after an exchange, which happens before
    // exchange_by; verifying a token needs its session row, so only then may the row go.
    table: 'embed_session',
    key: 'id',
    expired: (now) => sql`exchange_by < ${new Date(now - TOKEN_LIFETIME_SECONDS * 1000 - EMBED_SESSION_RETENTION_MS)}`,
  },
];
