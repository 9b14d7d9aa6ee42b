import { join } from 'node:path';
import type { AvailableRollup, RollupColumn } from '@plinth/semantic';
import type { Executor } from '../../store/executor.js';
import type { RollupPartitionRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { emptyType, literal } from './storage.js';
import { warehouseFrom } from './warehouse-tables.js';

/** A partition as the refresh found it in the warehouse's range. */
export interface PartitionSlot {
  name: string;
  start: string | null;
  end: string | null;
}

export interface BuiltVersion {
  version: string;
  refreshKey: string;
  file: string | null;
  /** `external: false`: its table in the source warehouse instead of a file. */
  table?: string | null;
  rows: number;
  /** Unknown for a table of a DuckDB warehouse, which tells no table's size. */
  bytes: number | null;
  buildMs: number;
}

/** What the manifest knows of one build's rollups: the key of every query of it is in here. */
export class Manifest {
  constructor(private readonly db: Executor) {}

  partitions(buildId: number, rollupId?: string): Promise<RollupPartitionRow[]> {
    let query = this.db.selectFrom('rollup_partition').selectAll().where('build_id', '=', buildId);
    if (rollupId !== undefined) query = query.where('rollup_id', '=', rollupId);
    return query.orderBy('rollup_id').orderBy('range_start').orderBy('name').execute();
  }

  /** Records the partitions the range now has; ones it no longer has (the range moved) leave with their files. */
  async plan(ids: { accountId: number; deploymentId: number; buildId: number; rollupId: string }, slots: readonly PartitionSlot[]) {
    await transaction(this.db, async (db) => {
      for (const slot of slots) {
        await db
          .insertInto('rollup_partition')
          .values({
            account_id: ids.accountId,
            deployment_id: ids.deploymentId,
            build_id: ids.buildId,
            rollup_id: ids.rollupId,
            name: slot.name,
            range_start: slot.start,
            range_end: slot.end,
          })
          .onConflict((oc) => oc.columns(['build_id', 'rollup_id', 'name']).doNothing())
          .execute();
      }
      const names = slots.map((slot) => slot.name);
      let gone = db.deleteFrom('rollup_partition').where('build_id', '=', ids.buildId).where('rollup_id', '=', ids.rollupId);
      if (names.length) gone = gone.where('name', 'not in', names);
      const removed = await gone.returning(['file', 'warehouse_table']).execute();
      await this.retire(
        db,
        removed.map((row) => row.file),
      );
      await this.retireTables(
        ids.accountId,
        ids.deploymentId,
        removed.map((row) => row.warehouse_table),
        new Date(),
        db,
      );
    });
  }

  /**
   * Switches a partition to its new version: from this commit on, readers (in every process) read
   * the new file (or table); the old one is retired, deleted after a grace period so a reader that
   * took the old list just before still finds it.
   */
  async switchTo(buildId: number, rollupId: string, name: string, built: BuiltVersion, now: Date): Promise<void> {
    await transaction(this.db, async (db) => {
      const before = await db
        .selectFrom('rollup_partition')
        .select(['file', 'warehouse_table', 'account_id', 'deployment_id'])
        .where('build_id', '=', buildId)
        .where('rollup_id', '=', rollupId)
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst();
      await db
        .updateTable('rollup_partition')
        .set({
          version: built.version,
          refresh_key: built.refreshKey,
          file: built.file,
          warehouse_table: built.table ?? null,
          row_count: built.rows,
          bytes: built.bytes,
          built_at: now,
          build_ms: built.buildMs,
          last_error: null,
          error_at: null,
        })
        .where('build_id', '=', buildId)
        .where('rollup_id', '=', rollupId)
        .where('name', '=', name)
        .execute();
      await this.retire(db, [before?.file ?? null], now);
      if (before) await this.retireTables(before.account_id, before.deployment_id, [before.warehouse_table], now, db);
    });
  }

  /** Tables of a deployment's source warehouse that no reader is sent to any more: dropped after the grace period. */
  async retireTables(
    accountId: number,
    deploymentId: number,
    tables: ReadonlyArray<string | null>,
    now: Date,
    db: Executor = this.db,
  ): Promise<void> {
    const kept = tables.filter((table): table is string => table !== null);
    if (kept.length)
      await db
        .insertInto('rollup_retired_table')
        .values(kept.map((table) => ({ account_id: accountId, deployment_id: deploymentId, warehouse_table: table, retired_at: now })))
        .execute();
  }

  async failed(buildId: number, rollupId: string, name: string, message: string, now: Date): Promise<void> {
    await this.db
      .updateTable('rollup_partition')
      .set({ last_error: message, error_at: now })
      .where('build_id', '=', buildId)
      .where('rollup_id', '=', rollupId)
      .where('name', '=', name)
      .execute();
  }

  private async retire(db: Executor, files: ReadonlyArray<string | null>, now = new Date()): Promise<void> {
    const kept = files.filter((file): file is string => file !== null);
    if (kept.length)
      await db
        .insertInto('rollup_retired_file')
        .values(kept.map((file) => ({ file, retired_at: now })))
        .execute();
  }
}

/** The Parquet bytes of an offered rollup's files (none for one without files), for the in-memory copies' budget. */
const storedBytes = new WeakMap<AvailableRollup, number>();
export const bytesOf = (rollup: AvailableRollup): number | undefined => storedBytes.get(rollup);

/**
 * The rollups of a build a query may be answered from: those whose every partition has a version.
 * `from` reads exactly the files (or, kept in the source warehouse, the tables) the manifest names now.
 */
export function availableRollups(
  dataDir: string,
  rows: readonly RollupPartitionRow[],
  columnsOf: (rollupId: string) => readonly RollupColumn[] | undefined,
): AvailableRollup[] {
  const byRollup = new Map<string, RollupPartitionRow[]>();
  for (const row of rows) byRollup.set(row.rollup_id, [...(byRollup.get(row.rollup_id) ?? []), row]);
  const available: AvailableRollup[] = [];
  for (const [id, partitions] of byRollup) {
    const columns = columnsOf(id);
    if (!columns || partitions.some((p) => p.version === null)) continue;
    const tables = partitions.flatMap((p) => (p.warehouse_table ? [p.warehouse_table] : []));
    if (tables.length) {
      // Every partition of a build's rollup lives in one place: its definition is the build's.
      if (tables.length === partitions.length) available.push(inWarehouse(id, partitions, tables, columns));
      continue;
    }
    const files = partitions.flatMap((p) => (p.file ? [join(dataDir, p.file)] : []));
    const from = files.length
      ? `read_parquet([${files.map(literal).join(', ')}], union_by_name = true)`
      : `(SELECT ${columns.map((c) => `CAST(NULL AS ${emptyType(c)}) AS "${c.name}"`).join(', ')} WHERE false)`;
    const rollup: AvailableRollup = { id, from, ...versionsOf(partitions) };
    if (files.length)
      storedBytes.set(
        rollup,
        partitions.reduce((sum, p) => sum + (p.bytes ?? 0), 0),
      );
    available.push(rollup);
  }
  return available;
}

/** What a rollup's partitions say of its versions, its last refresh and the time range it covers. */
function versionsOf(partitions: readonly RollupPartitionRow[]): Pick<AvailableRollup, 'versions' | 'lastUpdatedAt' | 'covers'> {
  const starts = partitions.map((p) => p.range_start).filter((s): s is string => s !== null);
  const ends = partitions.map((p) => p.range_end).filter((s): s is string => s !== null);
  const built = partitions.map((p) => p.built_at!.getTime());
  return {
    versions: partitions.map((p) => p.version!),
    lastUpdatedAt: Math.max(...built),
    ...(starts.length && ends.length ? { covers: { start: starts.sort()[0]!, end: ends.sort().at(-1)! } } : {}),
  };
}

/** A rollup kept in the source warehouse: the planner reads its tables with the source's SQL, and `usedPreAggregations` names the first. */
function inWarehouse(id: string, partitions: readonly RollupPartitionRow[], tables: readonly string[], columns: readonly RollupColumn[]) {
  return {
    id,
    from: warehouseFrom(tables, columns),
    inWarehouse: true,
    targetTableName: tables[0]!,
    ...versionsOf(partitions),
  } satisfies AvailableRollup;
}
