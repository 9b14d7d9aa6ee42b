import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { AppUserTable, NewAppUser } from '../../store/schema.js';

/** Filters of the offset-paged search SCIM-style callers need (`startIndex`/`count`, `totalResults`). */
export interface UserSearch {
  offset: number;
  limit: number;
  email?: string;
  externalId?: string;
}

export class UserRepo {
  constructor(private readonly db: Executor) {}

  find(accountId: number, id: number) {
    return this.base(accountId).where('id', '=', id).executeTakeFirst();
  }

  findByUuid(accountId: number, uuid: string) {
    return this.base(accountId).where('uuid', '=', uuid).executeTakeFirst();
  }

  /** Same expression as the unique index app_user_email_per_account, so the index serves it. */
  findByEmail(accountId: number, email: string) {
    return this.base(accountId)
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  findByExternalId(accountId: number, externalId: string) {
    return this.base(accountId).where('external_id', '=', externalId).executeTakeFirst();
  }

  many(accountId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.base(accountId).where('id', 'in', ids).orderBy('id').execute();
  }

  list(accountId: number, after: number | undefined, limit: number, email?: string) {
    return this.base(accountId)
      .$if(after !== undefined, (q) => q.where('id', '>', after!))
      .$if(email !== undefined, (q) => q.where(sql`lower(email)`, '=', email!.toLowerCase()))
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async search(accountId: number, search: UserSearch) {
    const filtered = this.base(accountId)
      .$if(search.email !== undefined, (q) => q.where(sql`lower(email)`, '=', search.email!.toLowerCase()))
      .$if(search.externalId !== undefined, (q) => q.where('external_id', '=', search.externalId!));
    // Sequential, not Promise.all: inside a transaction both share one connection anyway.
    const rows = await filtered.orderBy('id').offset(search.offset).limit(search.limit).execute();
    const count = await filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(count.total) };
  }

  insert(values: NewAppUser) {
    return this.db.insertInto('app_user').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Every change bumps `version`, which SCIM exposes as the resource's ETag. */
  update(accountId: number, id: number, values: Updateable<AppUserTable>) {
    return this.db
      .updateTable('app_user')
      .set({ ...values, updated_at: new Date(), version: sql`version + 1` })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
  }

  /** Sets last_login_at unless it is less than a minute old (UserService.recordLogin). */
  async recordLogin(accountId: number, id: number): Promise<void> {
    await this.db
      .updateTable('app_user')
      .set({ last_login_at: sql`now()` })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_login_at', 'is', null), eb('last_login_at', '<', sql<Date>`now() - interval '1 minute'`)]))
      .execute();
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('app_user').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Active admins other than `exceptId`, with their rows locked: two concurrent demotions then
   * run one after the other, and the second sees the first's result, so neither can remove the
   * last admin.
   */
  async otherActiveAdmins(accountId: number, exceptId: number): Promise<number> {
    const rows = await this.db
      .selectFrom('app_user')
      .select('id')
      .where('account_id', '=', accountId)
      .where('role', '=', 'admin')
      .where('active', '=', true)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .execute();
    return rows.filter((r) => r.id !== exceptId).length;
  }

  /** Users a SCIM delete retired are gone for every caller (see UserService.retire). */
  private base(accountId: number) {
    return this.db.selectFrom('app_user').selectAll().where('account_id', '=', accountId).where('deleted_at', 'is', null);
  }

  async retire(accountId: number, id: number, audit: { by: string; reason: string }): Promise<void> {
    const now = new Date();
    await this.db
      .updateTable('app_user')
      .set({
        active: false,
        deleted_at: now,
        deleted_by: audit.by,
        deletion_reason: audit.reason,
        updated_at: now,
        version: sql`version + 1`,
      })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }
}
