import { sql, type Kysely } from 'kysely';

/**
 * Data models (issue 13), stored like git's object model so that every server process sharing one
 * PostgreSQL sees the same thing and a branch costs one row whatever the model's size:
 * - `model_blob`: file contents, addressed by the SHA-256 of their UTF-8 bytes, per account (one
 *   account never learns whether another holds a given content);
 * - `model_tree`: a whole file tree as `{path: blob hash}`, addressed by the SHA-256 of its
 *   canonical JSON, so identical trees are stored once;
 * - `model_commit`: a tree, its parents, its author credential, message and time;
 * - `model_branch`: a name pointing at a commit, moved only by compare-and-swap on `head_commit_id`.
 *   A dev branch (`kind = 'dev'`) belongs to one credential and remembers the shared branch it
 *   was forked from and the commit of it it last synced with (`base_commit_id`, the merge base);
 * - `dev_mode_session`: one row per (deployment, credential) naming the dev branch in use.
 * Uploads stage a deploy's files until `finish` commits them all at once; builds record what the
 * compiler made of one commit of a branch, and their logs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table model_blob (
      account_id integer not null references account(id) on delete cascade,
      hash text not null,
      size integer not null,
      content text not null,
      created_at timestamptz not null default now(),
      primary key (account_id, hash)
    );
    create table model_tree (
      account_id integer not null references account(id) on delete cascade,
      hash text not null,
      entries jsonb not null,
      file_count integer not null,
      total_size bigint not null,
      primary key (account_id, hash)
    );
    create table model_commit (
      id bigint generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      tree_hash text not null,
      parent_ids bigint[] not null default '{}',
      author_kind text not null check (author_kind in ('apiKey', 'accessToken', 'system')),
      author_credential_id integer,
      author_user_id integer,
      message text not null,
      created_at timestamptz not null default now(),
      foreign key (account_id, tree_hash) references model_tree (account_id, hash)
    );
    create index model_commit_deployment on model_commit (deployment_id, id);

    create table model_branch (
      id bigint generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      name text not null,
      kind text not null check (kind in ('shared', 'dev')),
      is_default boolean not null default false,
      dev_mode boolean not null default false,
      always_active boolean not null default false,
      head_commit_id bigint not null references model_commit(id),
      forked_from text,
      base_commit_id bigint references model_commit(id),
      owner_key text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (deployment_id, name),
      check ((kind = 'dev') = (owner_key is not null))
    );
    create unique index model_branch_default on model_branch (deployment_id) where is_default;

    create table dev_mode_session (
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      credential_key text not null,
      branch_name text not null,
      created_at timestamptz not null default now(),
      primary key (deployment_id, credential_key)
    );

    create table model_upload (
      id text primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      branch_name text not null,
      base_commit_id bigint not null references model_commit(id),
      manifest jsonb not null,
      keep_missing boolean not null default false,
      message text,
      credential_key text not null,
      state text not null default 'open' check (state in ('open', 'finished', 'aborted')),
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index model_upload_expires on model_upload (expires_at);
    create table model_upload_file (
      upload_id text not null references model_upload(id) on delete cascade,
      path text not null,
      hash text not null,
      primary key (upload_id, path)
    );

    create table model_build (
      id bigint generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      branch_name text not null,
      commit_id bigint not null references model_commit(id),
      status text not null default 'queued' check (status in ('queued', 'building', 'built', 'failed', 'cancelled')),
      job_id bigint references job(id) on delete set null,
      trigger text not null,
      errors jsonb,
      cubes_count integer,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    );
    create index model_build_branch on model_build (deployment_id, branch_name, id);
    create index model_build_commit on model_build (commit_id);

    create table build_log (
      id bigint generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      build_id bigint references model_build(id) on delete cascade,
      source text not null check (source in ('production', 'dev')),
      pod text not null,
      container text not null,
      level text not null,
      message text not null,
      created_at timestamptz not null default now()
    );
    create index build_log_deployment on build_log (deployment_id, id);
    create index build_log_created on build_log (created_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table build_log, model_build, model_upload_file, model_upload, dev_mode_session, model_branch, model_commit, model_tree, model_blob;
  `.execute(db);
}
