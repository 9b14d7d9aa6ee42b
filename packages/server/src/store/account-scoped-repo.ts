import type { Generated, Insertable, Kysely, Selectable, SelectQueryBuilder, Updateable } from 'kysely';
import { byId, decodeCursor, pageSize, toPage, type ListOrder, type Page, type PageQuery } from '../http/pagination.js';
import type { Executor } from './executor.js';
import { afterId } from './keyset.js';
import type { Database } from './schema.js';

/** A table of rows that each belong to one account, with an id and the time of their last change. */
interface AccountScopedShape {
  id: Generated<number>;
  account_id: number;
  updated_at: unknown;
}

/** The tables of the store that have that shape: the ones this repository serves. */
export type AccountScopedTable = {
  [T in keyof Database]: Database[T] extends AccountScopedShape ? T : never;
}[keyof Database];

type Row<T extends AccountScopedTable> = Selectable<Database[T]>;

/**
 * What a query sees of the one table it is built for; Kysely cannot follow a table name that is
 * a type parameter, so the repository queries through this view and answers in the table's types.
 */
interface Scoped {
  t: { id: Generated<number>; account_id: number; updated_at: Date };
}

/**
 * The CRUD of an account's rows of one table, every statement bounded by the account, so an id of
 * another account is as missing as an unknown one. Lists page by id (store/keyset.ts) with
 * cursors that name the list. It runs on the handle it is given, so inside `transaction()` it
 * joins the transaction. A module uses it for its own tables only (boundaries.test.ts).
 */
export class AccountScopedRepo<T extends AccountScopedTable> {
  private readonly db: Kysely<Scoped>;
  readonly order: ListOrder<{ id: number }>;

  /** `list` names the list inside its cursors, e.g. `oauth-integrations`. */
  constructor(
    db: Executor,
    private readonly table: T,
    list: string,
  ) {
    this.db = db as unknown as Kysely<Scoped>;
    this.order = byId(list);
  }

  /** The account's rows, for a module's own further conditions. */
  select(accountId: number): SelectQueryBuilder<Database, T, Row<T>> {
    return this.from().selectAll().where('account_id', '=', accountId) as unknown as SelectQueryBuilder<Database, T, Row<T>>;
  }

  find(accountId: number, id: number): Promise<Row<T> | undefined> {
    return this.from().selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst() as Promise<
      Row<T> | undefined
    >;
  }

  /** A page of the account's rows in id order, after `query.after`, each mapped by `toItem`. */
  async page<Item>(accountId: number, query: PageQuery, toItem: (row: Row<T>) => Item): Promise<Page<Item>> {
    const after = decodeCursor(this.order as ListOrder<never>, query.after)?.id;
    const rows = (await this.from()
      .selectAll()
      .where('account_id', '=', accountId)
      .$call(afterId('id', after, pageSize(query) + 1))
      .execute()) as unknown as (Row<T> & { id: number })[];
    return toPage(this.order, rows, query, toItem);
  }

  insert(values: Insertable<Database[T]>): Promise<Row<T>> {
    return this.db
      .insertInto(this.name())
      .values(values as never)
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<Row<T>>;
  }

  /** Undefined when the account has no such row; `updated_at` moves with every change. */
  update(accountId: number, id: number, values: Updateable<Database[T]>): Promise<Row<T> | undefined> {
    return this.db
      .updateTable(this.name())
      .set({ ...(values as object), updated_at: new Date() })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst() as Promise<Row<T> | undefined>;
  }

  /** Whether the account had the row. */
  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom(this.name()).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private from() {
    return this.db.selectFrom(this.name());
  }

  /** The table under the alias-free name the view gives it. */
  private name(): 't' {
    return this.table as unknown as 't';
  }
}
