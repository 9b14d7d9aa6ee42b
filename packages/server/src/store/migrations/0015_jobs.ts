import { sql, type Kysely } from 'kysely';

/**
 * Background jobs (issue 11, section 2): one queue every process claims from with
 * `FOR UPDATE SKIP LOCKED` under a lease, so work survives a process that dies mid-job. A job is
 * `queued` (waiting for `run_at`, also between retries), `running` (held until `lease_until` by
 * `claimed_by`), then `succeeded`, `dead` (out of attempts, `last_error` kept) or `cancelled`.
 * At most one queued-or-running job per (kind, dedupe key), whichever process enqueues it.
 *
 * The retention sweep, the first job kind, deletes by expiry columns that had no index; each index
 * here lets its bounded batches find old rows without scanning the table; deleting an expired
 * ephemeral external user sets its sessions' external_user_id to null, found by the last one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table job (
      id bigint generated always as identity primary key,
      kind text not null,
      payload jsonb not null default '{}'::jsonb,
      account_id integer references account(id) on delete cascade,
      dedupe_key text,
      state text not null default 'queued' check (state in ('queued', 'running', 'succeeded', 'dead', 'cancelled')),
      attempts integer not null default 0,
      max_attempts integer not null check (max_attempts > 0),
      run_at timestamptz not null,
      lease_until timestamptz,
      claimed_by text,
      cancel_requested boolean not null default false,
      last_error text,
      result jsonb,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create unique index job_dedupe on job (kind, dedupe_key)
      where dedupe_key is not null and state in ('queued', 'running');
    create index job_due on job (run_at) where state = 'queued';
    create index job_lease on job (lease_until) where state = 'running';
    create index job_finished on job (finished_at) where finished_at is not null;

    create index embed_session_exchange_by on embed_session (exchange_by);
    create index embed_session_external_user on embed_session (external_user_id) where external_user_id is not null;
    create index access_token_refresh_end on access_token (coalesce(refresh_expires_at, expires_at));
    create index access_token_revoked on access_token (revoked_at) where revoked_at is not null;
    create index telemetry_event_created on telemetry_event (created_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index telemetry_event_created, access_token_revoked, access_token_refresh_end, embed_session_external_user, embed_session_exchange_by;
    drop table job;
  `.execute(db);
}
