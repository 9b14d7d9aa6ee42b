import { sql } from 'kysely';
import type { Lease } from '../../lease/lease.js';
import { StoreLeases } from '../../lease/store.js';
import type { Executor } from '../../store/executor.js';
import type { CiRunRow, CiRunState } from '../../store/schema.js';
import type { RunOwner } from './owner.js';

/** Queries of the ci_run table (migrations 0026, 0034). Each joins the transaction open in the caller's async context. */
export class CiRunRepo {
  constructor(private readonly db: Executor) {}

  /** The leases of runs, kept in their rows and held only while the run is active; `now` is the lease clock. */
  leases(now: () => number): StoreLeases {
    const columns = { table: 'ci_run', key: 'id', token: 'holder', until: 'lease_until', where: sql`state = 'active'` };
    return new StoreLeases(this.db, columns, now);
  }

  /** The pair's active run, locked until the transaction ends, so a takeover and the lapse job never both act on it. */
  activeForUpdate(deploymentId: number, credentialKey: string): Promise<CiRunRow | undefined> {
    return this.db
      .selectFrom('ci_run')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .where('credential_key', '=', credentialKey)
      .where('state', '=', 'active')
      .forUpdate()
      .executeTakeFirst();
  }

  /** The pair's active run, unlocked: what a waiting request names in its 409. */
  active(deploymentId: number, credentialKey: string): Promise<CiRunRow | undefined> {
    return this.db
      .selectFrom('ci_run')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .where('credential_key', '=', credentialKey)
      .where('state', '=', 'active')
      .executeTakeFirst();
  }

  /**
   * A new active run holding its lease, `holder` its token, until `leaseUntil` (a run's lease starts
   * held, with its row), or undefined when another process's insert for the pair won the race: the
   * partial unique index refuses a second active run, and DO NOTHING turns that into no row.
   */
  insert(input: {
    accountId: number;
    deploymentId: number;
    credentialKey: string;
    owner: RunOwner;
    ref: string;
    holder: string;
    leaseUntil: Date;
  }): Promise<CiRunRow | undefined> {
    return this.db
      .insertInto('ci_run')
      .values({
        account_id: input.accountId,
        deployment_id: input.deploymentId,
        credential_key: input.credentialKey,
        owner: JSON.stringify(input.owner),
        ref: input.ref,
        holder: input.holder,
        lease_until: input.leaseUntil,
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  byIdForUpdate(runId: number, accountId?: number): Promise<CiRunRow | undefined> {
    let query = this.db.selectFrom('ci_run').selectAll().where('id', '=', runId);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    return query.forUpdate().executeTakeFirst();
  }

  byId(runId: number): Promise<CiRunRow | undefined> {
    return this.db.selectFrom('ci_run').selectAll().where('id', '=', runId).executeTakeFirst();
  }

  /** Ends the run while `lease` still holds it, giving the lease up with it. */
  end(leases: StoreLeases, lease: Lease, state: Exclude<CiRunState, 'active'>, at: Date): Promise<CiRunRow | undefined> {
    return this.db
      .updateTable('ci_run')
      .set({ state, finished_at: at, holder: null })
      .where(leases.heldBy(lease))
      .returningAll()
      .executeTakeFirst();
  }

  /** Wakes requests waiting for the pair in every process, when (and only if) the transaction commits. */
  async released(channel: string, deploymentId: number, credentialKey: string): Promise<void> {
    await sql`select pg_notify(${channel}, ${`${deploymentId}:${credentialKey}`})`.execute(this.db);
  }
}
