import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../store/executor.js';
import { inOpenTransaction } from '../../store/transaction.js';
import type { AppUserRow, UserGroupRow } from '../../store/schema.js';
import { groupsOfAccount, membershipsOfAccount, membershipsOfGroup } from '../groups/public.js';
import { allUsers, everyUser, usersOfAccount } from '../users/public.js';
import { findAttr, resourceTypes, type AttributeDef } from './attributes.js';
import type { FilterTarget, MultiTarget } from './filter.js';
import { ENTERPRISE_KEY } from './mappers.js';

/**
 * The read side of SCIM: filter, sort and offset paging over the account's users and tenant-wide
 * groups. The SCIM filter → SQL translation is SCIM-specific, so it lives here, over the relations
 * the users and groups modules offer (`u`, `g`, `gm`, `mu` below); each list page stays one
 * statement. Every query is bounded by the account.
 */
export interface ListQuery {
  where?: RawBuilder<unknown> | undefined;
  orderBy?: { column: RawBuilder<unknown>; descending: boolean } | undefined;
  offset: number;
  limit: number;
}

export interface MemberRow {
  group_id: number;
  user_id: number;
  uuid: string;
  email: string | null;
  user_name: string | null;
  display_name: string | null;
}

export interface UserGroupOfRow {
  user_id: number;
  uuid: string;
  name: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/** The addresses a user presents (mappers.ts emailsOf): the stored ones, or a platform user's own. */
const userEmails = sql`coalesce(nullif(u.emails, '[]'::jsonb), case when u.user_name is null and u.email is not null
  then jsonb_build_array(jsonb_build_object('value', u.email, 'type', 'work', 'primary', true)) else '[]'::jsonb end)`;

/** sortBy emails: the primary address, else the first (RFC 7644 §3.4.2.3). */
const userPrimaryEmail = sql`coalesce(
  (select ue.item->>'value' from jsonb_array_elements(${userEmails}) as ue(item) where (ue.item->>'primary')::boolean limit 1),
  ${userEmails}->0->>'value')`;

/** Same expression as the unique index app_user_user_name_per_account, so `userName eq` is one probe. */
export const userNameColumn = sql`coalesce(u.user_name, u.email)`;

const extra = (...path: string[]) => sql`u.scim_attributes #>> ${`{${path.join(',')}}`}`;

const EXTRA_STRINGS = ['nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone'];
const NAME_EXTRAS = ['formatted', 'middleName', 'honorificPrefix', 'honorificSuffix'];
const ENTERPRISE_STRINGS = ['employeeNumber', 'costCenter', 'organization', 'division', 'department'];

const userColumns: Record<string, RawBuilder<unknown>> = {
  id: sql`u.uuid::text`,
  username: userNameColumn,
  'name.givenname': sql`u.given_name`,
  'name.familyname': sql`u.family_name`,
  displayname: sql`u.display_name`,
  active: sql`u.active`,
  externalid: sql`u.external_id`,
  'meta.created': sql`u.created_at`,
  'meta.lastmodified': sql`u.updated_at`,
  'meta.resourcetype': sql`'User'::text`,
  'meta.version': sql`'W/"' || u.version || '"'`,
  // Not a filterable path (no attribute is named so); only list-params' sortBy asks for it.
  'emails.$primary': userPrimaryEmail,
  ...Object.fromEntries(EXTRA_STRINGS.map((n) => [n.toLowerCase(), extra(n)])),
  ...Object.fromEntries(NAME_EXTRAS.map((n) => [`name.${n.toLowerCase()}`, extra('name', n)])),
  // Enterprise attributes resolve only through their URN (attributes.ts), so these keys cannot be
  // reached by a core path.
  ...Object.fromEntries(ENTERPRISE_STRINGS.map((n) => [n.toLowerCase(), extra(ENTERPRISE_KEY, n)])),
  'manager.value': extra(ENTERPRISE_KEY, 'manager', 'value'),
  'manager.$ref': extra(ENTERPRISE_KEY, 'manager', '$ref'),
  'manager.displayname': extra(ENTERPRISE_KEY, 'manager', 'displayName'),
};

/** Multi-valued attributes kept in scim_attributes, by lowercase name, with their attribute name there. */
const EXTRA_MULTI: Record<string, string> = Object.fromEntries(
  ['phoneNumbers', 'ims', 'photos', 'addresses', 'entitlements', 'roles', 'x509Certificates'].map((n) => [n.toLowerCase(), n]),
);

function itemColumns(def: AttributeDef | undefined): Record<string, RawBuilder<unknown>> {
  const subs = def?.subAttributes ?? [];
  return Object.fromEntries(
    subs.map((sub) => [
      sub.name.toLowerCase(),
      sub.type === 'boolean' ? sql`(ue.item->>${sub.name})::boolean` : sql`ue.item->>${sub.name}`,
    ]),
  );
}

function jsonItems(array: RawBuilder<unknown>, def: AttributeDef | undefined): MultiTarget {
  const items = itemColumns(def);
  return {
    item: (sub) => items[sub],
    exists: (condition) => sql`exists (select 1 from jsonb_array_elements(${array}) as ue(item) where ${condition})`,
  };
}

export const userTarget: FilterTarget = {
  type: resourceTypes.User,
  column: (path) => userColumns[path],
  multi(name) {
    const def = findAttr(resourceTypes.User.attributes, name);
    if (name === 'emails') return jsonItems(userEmails, def);
    const stored = EXTRA_MULTI[name];
    if (!stored) return undefined;
    return jsonItems(sql`coalesce(u.scim_attributes -> ${stored}, '[]'::jsonb)`, def);
  },
};

const groupColumns: Record<string, RawBuilder<unknown>> = {
  id: sql`g.uuid::text`,
  displayname: sql`g.name`,
  externalid: sql`g.external_id`,
  'meta.created': sql`g.created_at`,
  'meta.lastmodified': sql`g.updated_at`,
  'meta.resourcetype': sql`'Group'::text`,
  'meta.version': sql`'W/"' || g.version || '"'`,
};

export const groupTarget: FilterTarget = {
  type: resourceTypes.Group,
  column: (path) => groupColumns[path],
  multi(name) {
    if (name !== 'members') return undefined;
    const items: Record<string, RawBuilder<unknown>> = {
      value: sql`mu.uuid::text`,
      display: sql`coalesce(mu.display_name, mu.user_name, mu.email)`,
      type: sql`'User'::text`,
    };
    return {
      item: (sub) => items[sub],
      exists: (condition) =>
        sql`exists (select 1 from ${membershipsOfGroup(sql.ref('g.id'), sql.ref('g.account_id'))} as gm
          join ${everyUser} as mu on mu.id = gm.user_id where (${condition}))`,
    };
  },
};

export class ScimQueryRepo {
  constructor(private readonly db: Executor) {}

  listUsers(accountId: number, query: ListQuery): Promise<{ total: number; rows: AppUserRow[] }> {
    const where = query.where ?? sql`true`;
    const order = orderClause(query.orderBy, sql`u.id`);
    const users = sql`(${usersOfAccount(this.db, accountId).selectAll()})`;
    return this.paged(
      sql`select count(*)::int as total from ${users} as u where (${where})`,
      // The page's ids come from the narrowest scan the planner can find (index-only on
      // (account_id, id) when unfiltered), so a deep startIndex does not fetch every skipped row.
      (limit) => sql<AppUserRow>`
        select u.* from ${users} as u where u.id in (
          select u.id from ${users} as u where (${where})
          order by ${order} offset ${query.offset} limit ${limit})
        order by ${order}`,
      query,
    );
  }

  listGroups(accountId: number, query: ListQuery): Promise<{ total: number; rows: UserGroupRow[] }> {
    const where = query.where ?? sql`true`;
    const order = orderClause(query.orderBy, sql`g.id`);
    const groups = sql`(${groupsOfAccount(this.db, accountId).selectAll()})`;
    return this.paged(
      sql`select count(*)::int as total from ${groups} as g where (${where})`,
      (limit) => sql<UserGroupRow>`
        select g.* from ${groups} as g where (${where})
        order by ${order} offset ${query.offset} limit ${limit}`,
      query,
    );
  }

  /**
   * A first page that is not full tells the total by itself (the `userName eq` probe of every
   * identity provider), so the count runs only when it is needed; a later page runs the count
   * beside the page query rather than after it.
   */
  private async paged<Row>(
    count: RawBuilder<unknown>,
    page: (limit: number) => RawBuilder<Row>,
    query: ListQuery,
  ): Promise<{ total: number; rows: Row[] }> {
    const total = async () => ((await count.execute(this.db)).rows[0] as { total: number } | undefined)?.total ?? 0;
    if (query.limit === 0) return { total: await total(), rows: [] };
    if (query.offset === 0) {
      const { rows } = await page(query.limit + 1).execute(this.db);
      if (rows.length <= query.limit) return { total: rows.length, rows };
      return { total: await total(), rows: rows.slice(0, query.limit) };
    }
    if (inOpenTransaction(this.db)) {
      const { rows } = await page(query.limit).execute(this.db);
      return { total: await total(), rows };
    }
    const [{ rows }, all] = await Promise.all([page(query.limit).execute(this.db), total()]);
    return { total: all, rows };
  }

  findUser(accountId: number, uuid: string, lock = false): Promise<AppUserRow | undefined> {
    if (!isUuid(uuid)) return Promise.resolve(undefined);
    return usersOfAccount(this.db, accountId)
      .selectAll()
      .where('uuid', '=', uuid)
      .$if(lock, (q) => q.forUpdate())
      .executeTakeFirst();
  }

  /** The user holding a userName, case-insensitively, through the unique index on it. */
  async findUserIdByUserName(accountId: number, userName: string): Promise<number | undefined> {
    const { rows } = await sql<{ id: number }>`select u.id from (${usersOfAccount(this.db, accountId).selectAll()}) as u
      where lower(${userNameColumn}) = ${userName.toLowerCase()}`.execute(this.db);
    return rows[0]?.id;
  }

  findGroup(accountId: number, uuid: string, lock = false): Promise<UserGroupRow | undefined> {
    if (!isUuid(uuid)) return Promise.resolve(undefined);
    return groupsOfAccount(this.db, accountId)
      .selectAll()
      .where('uuid', '=', uuid)
      .$if(lock, (q) => q.forUpdate())
      .executeTakeFirst();
  }

  /** Users of the account among `uuids`; ids that are not UUIDs or not the account's are absent. */
  usersByUuid(accountId: number, uuids: string[]) {
    const valid = [...new Set(uuids.filter(isUuid).map((u) => u.toLowerCase()))];
    if (valid.length === 0) return Promise.resolve([]);
    return usersOfAccount(this.db, accountId)
      .select(['id', 'uuid', 'email', 'user_name', 'display_name'])
      .where('uuid', 'in', valid)
      .execute();
  }

  /** The groups of each of `userIds`, for a User's read-only `groups` when a client asks for it. */
  groupsOfUsers(accountId: number, userIds: number[]): Promise<UserGroupOfRow[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom(membershipsOfAccount(this.db, accountId).selectAll().as('gm'))
      .innerJoin(groupsOfAccount(this.db, accountId).selectAll().as('g'), 'g.id', 'gm.group_id')
      .select(['gm.user_id', 'g.uuid', 'g.name'])
      .where('gm.user_id', 'in', userIds)
      .orderBy('gm.user_id')
      .orderBy('g.id')
      .execute();
  }

  members(accountId: number, groupIds: number[]): Promise<MemberRow[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom(membershipsOfAccount(this.db, accountId).selectAll().as('gm'))
      .innerJoin(allUsers(this.db).as('mu'), 'mu.id', 'gm.user_id')
      .select(['gm.group_id', 'gm.user_id', 'mu.uuid', 'mu.email', 'mu.user_name', 'mu.display_name'])
      .where('gm.group_id', 'in', groupIds)
      .orderBy('gm.group_id')
      .orderBy('mu.id')
      .execute();
  }
}

function orderClause(orderBy: ListQuery['orderBy'], id: RawBuilder<unknown>): RawBuilder<unknown> {
  if (!orderBy) return id;
  const direction = sql.raw(orderBy.descending ? 'desc' : 'asc');
  return sql`${orderBy.column} ${direction} nulls last, ${id} ${direction}`;
}
