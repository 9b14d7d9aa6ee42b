import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * Kysely's view of the metadata store. Each module declares the tables it owns in its own
 * `tables.ts`, merged into this interface with their row types (`declare module '../../store/schema.js'`),
 * so this file lists no module's table: it holds the store's own (the job queue) and the column
 * types every module uses.
 */
export interface Database {
  // Background jobs (migration 0015).
  job: JobTable;
  // Cron schedules of background work (migration 0033).
  job_schedule: JobScheduleTable;
}

export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** jsonb columns: written as a JSON string (both drivers), read back parsed. */
export type Json<T = unknown> = ColumnType<T, string, string>;

/** Roles of internal users: their API keys' too, and what permissions.ts grants each. */
export type Role = 'admin' | 'member';

/** Types of user attributes, of the account's users and of embed tenants' external users alike. */
export type AttributeType = 'string' | 'number' | 'string_array' | 'number_array';

// Background jobs (migration 0015).
export type JobState = 'queued' | 'running' | 'succeeded' | 'dead' | 'cancelled';
export interface JobTable {
  id: Generated<number>;
  kind: string;
  payload: Json;
  account_id: number | null;
  dedupe_key: string | null;
  state: Generated<JobState>;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: Timestamp;
  lease_until: Timestamp | null;
  claimed_by: string | null;
  cancel_requested: Generated<boolean>;
  last_error: string | null;
  result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
}
export type JobRow = Selectable<JobTable>;

// Cron schedules of background work (migration 0033; jobs/schedules.ts).
export interface JobScheduleTable {
  name: string;
  cron: string;
  timezone: string;
  next_run_at: Timestamp;
  last_run_at: Timestamp | null;
  created_at: CreatedAt;
}
