import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

/** Who a policy is for: a user or a group of the account. */
export type Subject = { userId: number } | { groupId: number };

export interface ResourceRef {
  type: string;
  id: number;
}

/** resource_policy rows: one action per (subject, resource); the unique indexes of 0023 hold that. */
export class ResourcePolicyRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The policies on any of the given resources, oldest first. */
  onResources(accountId: number, resources: readonly ResourceRef[]) {
    return this.db
      .selectFrom('resource_policy')
      .select(['user_id', 'group_id', 'resource_type', 'resource_id', 'action'])
      .where('account_id', '=', accountId)
      .where((eb) => eb.or(resources.map((r) => eb.and([eb('resource_type', '=', r.type), eb('resource_id', '=', r.id)]))))
      .orderBy('id')
      .execute();
  }

  /** The subject's current action on the resource, if any. */
  async actionOf(accountId: number, subject: Subject, resource: ResourceRef): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('resource_policy')
      .select('action')
      .where('account_id', '=', accountId)
      .$call((q) => ('userId' in subject ? q.where('user_id', '=', subject.userId) : q.where('group_id', '=', subject.groupId)))
      .where('resource_type', '=', resource.type)
      .where('resource_id', '=', resource.id)
      .executeTakeFirst();
    return row?.action;
  }

  /** Sets the subject's one action on the resource, replacing what it held. */
  async put(accountId: number, subject: Subject, resource: ResourceRef, action: string): Promise<void> {
    const column = 'userId' in subject ? 'user_id' : 'group_id';
    const id = 'userId' in subject ? subject.userId : subject.groupId;
    await this.db
      .insertInto('resource_policy')
      .values({ account_id: accountId, [column]: id, resource_type: resource.type, resource_id: resource.id, action })
      .onConflict((oc) =>
        oc.columns([column, 'resource_type', 'resource_id']).where(column, 'is not', null).doUpdateSet({ action, updated_at: new Date() }),
      )
      .execute();
  }

  async remove(accountId: number, subject: Subject, resource: ResourceRef): Promise<void> {
    await this.db
      .deleteFrom('resource_policy')
      .where('account_id', '=', accountId)
      .$call((q) => ('userId' in subject ? q.where('user_id', '=', subject.userId) : q.where('group_id', '=', subject.groupId)))
      .where('resource_type', '=', resource.type)
      .where('resource_id', '=', resource.id)
      .execute();
  }
}
