import { sql, type Kysely } from 'kysely';

/**
 * Threads of the analytics chat and their messages. A thread belongs to one user, named by
 * `owner` (the embed tenant and external id, or the internal user: see chat/owner.ts), so a read
 * always names the owner and one user never reaches another's thread, whatever tenant it is in.
 * `streaming_since` marks the turn in progress: a second message is refused while it is set and
 * recent, in every process. A message keeps the line it was streamed as (`line`), so replaying a
 * thread gives what was streamed; `message_id` is the client's idempotency key of a user message.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table chat_thread (
      id text primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      agent_id integer references agent(id) on delete set null,
      owner text not null,
      title text not null,
      streaming_since timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index chat_thread_owner on chat_thread (account_id, owner, updated_at desc);

    create table chat_message (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      thread_id text not null references chat_thread(id) on delete cascade,
      sort integer not null,
      role text not null,
      message_id text,
      line jsonb not null,
      created_at timestamptz not null default now()
    );
    create unique index chat_message_sort on chat_message (thread_id, sort);
    create unique index chat_message_key on chat_message (thread_id, message_id) where message_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table chat_message; drop table chat_thread`.execute(db);
}
