import { join } from 'node:path';
import type { AvailableRollup, RollupColumn } from '@plinth/semantic';
import type { Executor } from '../../store/executor.js';
import type { RollupPartitionRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { emptyType, literal } from './storage.js';

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
  rows: number;
  bytes: number;
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
      const removed = await gone.returning('file').execute();
      await this.retire(
        db,
        removed.map((row) => row.file),
      );
    });
  }

  /**
   * Switches a partition to its new version: from this commit on, readers (in every process) read
   * the new file; the old one is retired, deleted after a grace period so a reader that took the
   * old list just before still finds it.
   */
  async switchTo(buildId: number, rollupId: string, name: string, built: BuiltVersion, now: Date): Promise<void> {
    await transaction(this.db, async (db) => {
      const before = await db
        .selectFrom('rollup_partition')
        .select('file')
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
    });
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
 * `from` reads exactly the files the manifest names now.
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
    const files = partitions.flatMap((p) => (p.file ? [join(dataDir, p.file)] : []));
    const from = files.length
      ? `read_parquet([${files.map(literal).join(', ')}], union_by_name = true)`
      : `(SELECT ${columns.map((c) => `CAST(NULL AS ${emptyType(c)}) AS "${c.name}"`).join(', ')} WHERE false)`;
    const starts = partitions.map((p) => p.range_start).filter((s): s is string => s !== null);
    const ends = partitions.map((p) => p.range_end).filter((s): s is string => s !== null);
    const built = partitions.map((p) => p.built_at!.getTime());
    const rollup: AvailableRollup = {
      id,
      from,
      versions: partitions.map((p) => p.version!),
      lastUpdatedAt: Math.max(...built),
      ...(starts.length && ends.length ? { covers: { start: starts.sort()[0]!, end: ends.sort().at(-1)! } } : {}),
    };
    if (files.length)
      storedBytes.set(
        rollup,
        partitions.reduce((sum, p) => sum + (p.bytes ?? 0), 0),
      );
    available.push(rollup);
  }
  return available;
}
