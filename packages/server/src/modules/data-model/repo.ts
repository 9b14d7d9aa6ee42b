import { sql, type Kysely } from 'kysely';
import type { Principal } from '../../http/principal.js';
import type { AuthorKind, Database, ModelBranchRow, ModelCommitRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import type { BranchListener } from './public.js';

/** A commit as the module uses it: `pg` answers bigint[] as strings, so parents are mapped here. */
export interface Commit extends Omit<ModelCommitRow, 'parent_ids'> {
  parent_ids: number[];
}

const toCommit = (row: ModelCommitRow): Commit => ({ ...row, parent_ids: (row.parent_ids ?? []).map(Number) });

/** Who made a commit: the credential of the request, or the system for work done for no caller. */
export function authorOf(principal: Principal | null): {
  author_kind: AuthorKind;
  author_credential_id: number | null;
  author_user_id: number | null;
} {
  if (principal && (principal.kind === 'apiKey' || principal.kind === 'accessToken')) {
    return { author_kind: principal.kind, author_credential_id: principal.credentialId, author_user_id: principal.userId };
  }
  return { author_kind: 'system', author_credential_id: null, author_user_id: null };
}

/** The rows of the data-model store: branches, commits, dev-mode sessions. Nothing here decides policy. */
export class ModelRepo {
  /** Told of every branch made or removed, in the same transaction as the row. */
  readonly listeners: BranchListener[] = [];

  constructor(private readonly db: Kysely<Database>) {}

  findBranch(deploymentId: number, name: string): Promise<ModelBranchRow | undefined> {
    return this.db
      .selectFrom('model_branch')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  findDefault(deploymentId: number): Promise<ModelBranchRow | undefined> {
    return this.db
      .selectFrom('model_branch')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .where('is_default', '=', true)
      .executeTakeFirst();
  }

  branchById(id: number): Promise<ModelBranchRow | undefined> {
    return this.db.selectFrom('model_branch').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every deployment's branches in id order, a page after `afterId`. */
  branchPage(afterId: number, limit: number): Promise<ModelBranchRow[]> {
    return this.db.selectFrom('model_branch').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  /** Shared branches and the dev branches of one credential, by name. */
  listBranches(deploymentId: number, ownerKey: string): Promise<ModelBranchRow[]> {
    return this.db
      .selectFrom('model_branch')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .where((eb) => eb.or([eb('kind', '=', 'shared'), eb('owner_key', '=', ownerKey)]))
      .orderBy('is_default', 'desc')
      .orderBy('name')
      .execute();
  }

  /** One insert: a branch costs the same whatever the size of the model it points at. Undefined when the name is taken. */
  insertBranch(values: Parameters<ReturnType<Kysely<Database>['insertInto']>['values']>[0] & object): Promise<ModelBranchRow | undefined> {
    // The listeners' rows commit with the branch or not at all: no branch is ever seen without them.
    return transaction(this.db, async () => {
      const row = await this.db
        .insertInto('model_branch')
        .values(values as never)
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
      if (row) for (const listener of this.listeners) await listener.created(row);
      return row;
    });
  }

  /** Moves a branch head only if it is still where the caller read it: false when another writer won. */
  async moveHead(branchId: number, from: number, to: number, extra: { base_commit_id?: number } = {}): Promise<boolean> {
    const result = await this.db
      .updateTable('model_branch')
      .set({ head_commit_id: to, updated_at: new Date(), ...extra })
      .where('id', '=', branchId)
      .where('head_commit_id', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async updateBranch(branchId: number, values: { always_active?: boolean; base_commit_id?: number }): Promise<ModelBranchRow | undefined> {
    return this.db
      .updateTable('model_branch')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', branchId)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteBranch(branch: ModelBranchRow): Promise<void> {
    await this.db
      .deleteFrom('dev_mode_session')
      .where('deployment_id', '=', branch.deployment_id)
      .where('branch_name', '=', branch.name)
      .execute();
    await this.db.deleteFrom('model_branch').where('id', '=', branch.id).execute();
    for (const listener of this.listeners) await listener.deleted(branch);
  }

  async insertCommit(values: {
    account_id: number;
    deployment_id: number;
    tree_hash: string;
    parent_ids: number[];
    principal: Principal | null;
    message: string;
  }): Promise<Commit> {
    const { principal, parent_ids, ...rest } = values;
    // parent_ids is written as an array literal: both drivers bind it as one text parameter.
    const row = await this.db
      .insertInto('model_commit')
      .values({ ...rest, ...authorOf(principal), parent_ids: sql`${`{${parent_ids.join(',')}}`}::bigint[]` as never })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCommit(row);
  }

  async commit(accountId: number, id: number): Promise<Commit> {
    const row = await this.db
      .selectFrom('model_commit')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return toCommit(row);
  }

  /** A branch's history: the head and every ancestor, newest (highest id) first, after a cursor id. */
  async history(accountId: number, headId: number, beforeId: number | undefined, limit: number): Promise<Commit[]> {
    const rows = await sql<ModelCommitRow>`
      with recursive ancestry(id) as (
        select ${headId}::bigint
        union
        select unnest(c.parent_ids) from model_commit c join ancestry a on c.id = a.id
      )
      select c.* from model_commit c join ancestry a on c.id = a.id
      where c.account_id = ${accountId} ${beforeId === undefined ? sql`` : sql`and c.id < ${beforeId}`}
      order by c.id desc
      limit ${limit}`.execute(this.db);
    return rows.rows.map(toCommit);
  }

  /** The newest commit both heads descend from (git's merge base, by id), or null when none. */
  async mergeBase(a: number, b: number): Promise<number | null> {
    const rows = await sql<{ id: number }>`
      with recursive left_side(id) as (
        select ${a}::bigint union select unnest(c.parent_ids) from model_commit c join left_side l on c.id = l.id
      ), right_side(id) as (
        select ${b}::bigint union select unnest(c.parent_ids) from model_commit c join right_side r on c.id = r.id
      )
      select l.id from left_side l join right_side r on l.id = r.id order by l.id desc limit 1`.execute(this.db);
    return rows.rows[0] ? Number(rows.rows[0].id) : null;
  }

  session(deploymentId: number, credentialKey: string) {
    return this.db
      .selectFrom('dev_mode_session')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .where('credential_key', '=', credentialKey)
      .executeTakeFirst();
  }

  async openSession(accountId: number, deploymentId: number, credentialKey: string, branchName: string): Promise<void> {
    await this.db
      .insertInto('dev_mode_session')
      .values({ account_id: accountId, deployment_id: deploymentId, credential_key: credentialKey, branch_name: branchName })
      .onConflict((oc) => oc.columns(['deployment_id', 'credential_key']).doUpdateSet({ branch_name: branchName }))
      .execute();
  }

  async closeSession(deploymentId: number, credentialKey: string): Promise<string | null> {
    const row = await this.db
      .deleteFrom('dev_mode_session')
      .where('deployment_id', '=', deploymentId)
      .where('credential_key', '=', credentialKey)
      .returning('branch_name')
      .executeTakeFirst();
    return row?.branch_name ?? null;
  }
}
