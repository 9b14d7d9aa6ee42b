import { sql, type Kysely } from 'kysely';
import type { ChatThreadRow, Database } from '../../store/schema.js';
import { LIMITS } from './limits.js';

/** Threads and messages; every read names the account and the owner, so no thread is reached by its id alone. */
export class ChatRepo {
  constructor(private readonly db: Kysely<Database>) {}

  thread(accountId: number, owner: string, id: string): Promise<ChatThreadRow | undefined> {
    return this.db
      .selectFrom('chat_thread')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('owner', '=', owner)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  threads(accountId: number, owner: string, deploymentIds: readonly number[] | null) {
    return this.db
      .selectFrom('chat_thread')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('owner', '=', owner)
      .$if(deploymentIds !== null, (q) => q.where('deployment_id', 'in', deploymentIds!.length ? [...deploymentIds!] : [0]))
      .orderBy('updated_at', 'desc')
      .orderBy('id')
      .limit(LIMITS.listedThreads)
      .execute();
  }

  /** The owner's thread holding a user message of this idempotency key, if any. */
  threadOfMessage(accountId: number, owner: string, messageId: string): Promise<ChatThreadRow | undefined> {
    return this.db
      .selectFrom('chat_thread as t')
      .innerJoin('chat_message as m', 'm.thread_id', 't.id')
      .selectAll('t')
      .where('t.account_id', '=', accountId)
      .where('t.owner', '=', owner)
      .where('m.message_id', '=', messageId)
      .executeTakeFirst();
  }

  async insertThread(row: { id: string; account_id: number; deployment_id: number; agent_id: number; owner: string; title: string }) {
    await this.db.insertInto('chat_thread').values(row).execute();
  }

  /** Marks a turn as streaming unless another one is (and is not older than the bound); false when busy. */
  async startTurn(accountId: number, id: string): Promise<boolean> {
    const stale = new Date(Date.now() - LIMITS.turnMs);
    const result = await this.db
      .updateTable('chat_thread')
      .set({ streaming_since: new Date(), updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where((eb) => eb.or([eb('streaming_since', 'is', null), eb('streaming_since', '<', stale)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async endTurn(accountId: number, id: string): Promise<void> {
    await this.db
      .updateTable('chat_thread')
      .set({ streaming_since: null, updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  messages(accountId: number, threadId: string) {
    return this.db
      .selectFrom('chat_message')
      .select(['sort', 'role', 'message_id', 'line'])
      .where('account_id', '=', accountId)
      .where('thread_id', '=', threadId)
      .orderBy('sort')
      .execute();
  }

  async count(accountId: number, threadId: string): Promise<{ count: number; lastSort: number }> {
    const row = await this.db
      .selectFrom('chat_message')
      .select([sql<number>`count(*)::int`.as('count'), sql<number>`coalesce(max(sort), 0)::int`.as('last')])
      .where('account_id', '=', accountId)
      .where('thread_id', '=', threadId)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), lastSort: Number(row.last) };
  }

  async append(accountId: number, threadId: string, sort: number, line: Record<string, unknown>, messageId: string | null = null) {
    await this.db
      .insertInto('chat_message')
      .values({
        account_id: accountId,
        thread_id: threadId,
        sort,
        role: String(line.role),
        message_id: messageId,
        line: JSON.stringify(line),
      })
      .execute();
  }
}
