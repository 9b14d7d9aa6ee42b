import { sql, type RawBuilder } from 'kysely';
import type { Config } from '../../config.js';
import { LOG_RETENTION_MS } from '../deployment-logs/public.js';
import { TOKEN_LIFETIME_SECONDS } from '../embed/public.js';
import { PURGE_GRACE_MS } from '../login/public.js';
import { STALE_MS as RATE_LIMIT_STALE_MS } from '../rate-limits/service.js';

const DAY_MS = 24 * 3600_000;

/** Embed sessions stay listed (the audit list) this long after the last token they issued expired. */
export const EMBED_SESSION_RETENTION_MS = 30 * DAY_MS;
/** Finished jobs stay this long for whoever looks into what ran; dead ones longer, to be diagnosed. */
export const FINISHED_JOB_RETENTION_MS = 7 * DAY_MS;
export const DEAD_JOB_RETENTION_MS = 30 * DAY_MS;

/**
 * Rows that are over: `expired` selects them, by an indexed column, as of `now`. The owning
 * module's constants say when a row stops mattering; each rule explains why it is safe to forget.
 */
export interface RetentionRule {
  table: string;
  /** The column the batches delete by: the primary key. */
  key: string;
  expired(now: number, config: Config): RawBuilder<unknown>;
}

const before = (now: number, ms: number) => new Date(now - ms);

export const retentionRules: RetentionRule[] = [
  {
    // A token minted from a session lives TOKEN_LIFETIME after an exchange, which happens before
    // exchange_by; verifying a token needs its session row, so only then may the row go.
    table: 'embed_session',
    key: 'id',
    expired: (now) => sql`exchange_by < ${before(now, TOKEN_LIFETIME_SECONDS * 1000 + EMBED_SESSION_RETENTION_MS)}`,
  },
  {
    // Kept for login's grace, so a late click still hears "expired" rather than "unknown".
    table: 'device_authorization',
    key: 'id',
    expired: (now) => sql`expires_at < ${before(now, PURGE_GRACE_MS)}`,
  },
  {
    // A revoked token with a refresh token stays until the refresh expires: replaying a rotated
    // refresh token must still be recognised, and revokes its whole login session.
    table: 'access_token',
    key: 'id',
    expired: (now) => sql`coalesce(refresh_expires_at, expires_at) < ${before(now, PURGE_GRACE_MS)}`,
  },
  {
    table: 'access_token',
    key: 'id',
    expired: (now) => sql`revoked_at < ${before(now, PURGE_GRACE_MS)} and refresh_token_hash is null`,
  },
  {
    table: 'telemetry_event',
    key: 'id',
    expired: (now, config) => sql`created_at < ${before(now, config.telemetryRetentionDays * DAY_MS)}`,
  },
  {
    // Both rate-limit upserts restart a bucket idle this long, so it counts nothing any more.
    table: 'rate_limit',
    key: 'bucket',
    expired: (now) => sql`last_hit_at < ${before(now, RATE_LIMIT_STALE_MS)}`,
  },
  {
    // Ephemeral external users end at expires_at: lists hide them and a new session for the same
    // externalId recreates the user, so the rows only take space. Memberships and values cascade.
    table: 'external_user',
    key: 'id',
    expired: (now) => sql`expires_at <= ${new Date(now)}`,
  },
  {
    table: 'job',
    key: 'id',
    expired: (now) => sql`finished_at < ${before(now, FINISHED_JOB_RETENTION_MS)} and state in ('succeeded', 'cancelled')`,
  },
  {
    table: 'job',
    key: 'id',
    expired: (now) => sql`finished_at < ${before(now, DEAD_JOB_RETENTION_MS)} and state = 'dead'`,
  },
  {
    // Upload sessions are refused from expires_at on (model-uploads' UPLOAD_SESSION_TTL_MS after start), finished
    // or not: staged files are blobs of the account already, so the row and its file list go.
    table: 'model_upload',
    key: 'id',
    expired: (now) => sql`expires_at < ${new Date(now)}`,
  },
  {
    // A deployment's logs: nobody reads a build's lines once the build is a fortnight old.
    table: 'build_log',
    key: 'id',
    expired: (now) => sql`created_at < ${before(now, LOG_RETENTION_MS)}`,
  },
];
