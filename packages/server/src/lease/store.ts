import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../store/executor.js';
import { leaseToken, type Lease, type Leases } from './lease.js';

/** Where a table keeps the lease on each of its rows. */
export interface LeaseColumns {
  table: string;
  /** The row's key; a lease's `key` is its value as text. */
  key: string;
  /** The holder's token; null while no one holds the row. */
  token: string;
  /** When the lease lapses unless renewed: from that moment on, another may take it. */
  until: string;
  /** What else a row must satisfy to be held at all (a job must be running). */
  where?: RawBuilder<unknown>;
}

/**
 * Leases kept in the rows of the table that owns what is leased (a job's row holds who runs it),
 * so taking the lease and changing the row can be one statement or one transaction. Each method
 * is one conditional UPDATE: PostgreSQL's row lock makes it a compare-and-set. Time comes from
 * `now`, so tests move a clock.
 */
export class StoreLeases implements Leases {
  constructor(
    private readonly db: Executor,
    private readonly columns: LeaseColumns,
    private readonly now: () => number = Date.now,
  ) {}

  async acquire(key: string, ttlMs: number, token = leaseToken()): Promise<Lease | undefined> {
    const { token: held, until } = this.refs();
    const now = new Date(this.now());
    const taken = await this.update(
      key,
      sql`${held} = ${token}, ${until} = ${new Date(now.getTime() + ttlMs)}`,
      sql`(${held} is null or ${until} <= ${now})`,
    );
    return taken ? { key, token } : undefined;
  }

  renew(lease: Lease, ttlMs: number): Promise<boolean> {
    const { token, until } = this.refs();
    return this.update(lease.key, sql`${until} = ${new Date(this.now() + ttlMs)}`, sql`${token} = ${lease.token}`);
  }

  release(lease: Lease): Promise<boolean> {
    const { token, until } = this.refs();
    return this.update(lease.key, sql`${token} = null, ${until} = null`, sql`${token} = ${lease.token}`);
  }

  /** The condition under which `lease` is still held, for a statement that ends it with more (a job's outcome). */
  heldBy(lease: Lease): RawBuilder<boolean> {
    const { key, token } = this.refs();
    return sql<boolean>`${key} = ${lease.key} and ${token} = ${lease.token}${this.columns.where ? sql` and ${this.columns.where}` : sql``}`;
  }

  private async update(key: string, set: RawBuilder<unknown>, condition: RawBuilder<unknown>): Promise<boolean> {
    const refs = this.refs();
    const extra = this.columns.where ? sql` and ${this.columns.where}` : sql``;
    const result = await sql`update ${sql.table(this.columns.table)} set ${set}
      where ${refs.key} = ${key} and ${condition}${extra}`.execute(this.db);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  private refs() {
    return { key: sql.ref(this.columns.key), token: sql.ref(this.columns.token), until: sql.ref(this.columns.until) };
  }
}
