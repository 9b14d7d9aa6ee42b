import type { AvailableRollup, DuckDBWarehouse } from '@plinth/semantic';

/**
 * Parquet bytes of rollups this process copies into memory; past it, rollups are read from their
 * files. A copy takes up to some six times its Parquet size (measured on two million rows with an
 * incompressible column), so this keeps copies near 100 MiB a process; a dashboard's daily rollup
 * of a few dimensions is a few hundred kilobytes.
 */
export const MEMORY_TABLES_BYTES = 16 * 1024 * 1024;

interface Copy {
  /** Set once the table holds every row; queries read it only from then on. */
  table?: string;
  bytes: number;
  usedAt: number;
}

/**
 * Per-process in-memory copies of the rollups the data API reads. Reading a rollup through
 * `read_parquet` opens every partition's file and decodes its footer and pages on each query, which
 * costs a dashboard query several times the aggregation itself; a copy is made once per set of
 * partition versions and read like any DuckDB table.
 *
 * A copy is keyed by the rollup's `from` expression, which names the exact files (and so versions)
 * the manifest lists: a refreshed partition has a new file, so a new key and a new copy, and the
 * answer never comes from rows the manifest no longer names. Files are only ever listed once they
 * are complete, so a copy is never of a half-built partition. Until a copy is ready (and for one
 * past the budget) queries read the files as before. A copy no query asked for during the grace
 * period is dropped: one planned just before its versions were replaced still finds it.
 */
export class MemoryTables {
  private readonly copies = new Map<string, Copy>();
  private readonly pending = new Set<Promise<void>>();
  private sequence = 0;
  private sweptAt = 0;
  private generation = 0;

  constructor(
    private readonly duck: () => Promise<DuckDBWarehouse>,
    private readonly graceMs: number,
    private readonly budget = MEMORY_TABLES_BYTES,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The rollups as a query should read them now: from the copy where it is ready, else from the
   * files, starting the copy (in the background) when it fits the budget. `bytesOf` is the Parquet
   * size of a rollup's files; undefined for one with no files.
   */
  serve(rollups: readonly AvailableRollup[], bytesOf: (rollup: AvailableRollup) => number | undefined): readonly AvailableRollup[] {
    const now = this.now();
    if (now - this.sweptAt >= this.graceMs / 4) this.sweep(now);
    return rollups.map((rollup) => {
      if (rollup.inWarehouse) return rollup;
      const copy = this.copies.get(rollup.from);
      if (copy) {
        copy.usedAt = now;
        return copy.table ? { ...rollup, from: copy.table } : rollup;
      }
      const bytes = bytesOf(rollup);
      if (bytes !== undefined && this.held() + bytes <= this.budget) this.copy(rollup.from, bytes, now);
      return rollup;
    });
  }

  private held(): number {
    let total = 0;
    for (const copy of this.copies.values()) total += copy.bytes;
    return total;
  }

  private copy(from: string, bytes: number, now: number): void {
    const copy: Copy = { bytes, usedAt: now };
    this.copies.set(from, copy);
    const table = `plinth_rollup_${++this.sequence}`;
    const generation = this.generation;
    const made = this.duck()
      .then((duck) => duck.exec(`CREATE TABLE "${table}" AS SELECT * FROM ${from}`))
      .then(
        () => {
          // Cleared meanwhile: the DuckDB that holds the table is closing with it.
          if (generation !== this.generation) return;
          // Swept meanwhile: the table is nobody's.
          if (this.copies.get(from) === copy) copy.table = table;
          else this.drop(table);
        },
        // The files are read as before; the slot stays (holding nothing), so a failing copy is not
        // retried on every query, only once the grace period without queries has dropped it.
        () => {
          copy.bytes = 0;
        },
      )
      .finally(() => this.pending.delete(made));
    this.pending.add(made);
  }

  /** Resolves once the copies (and drops) started so far are done. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [from, copy] of this.copies) {
      if (now - copy.usedAt < this.graceMs) continue;
      this.copies.delete(from);
      if (copy.table) this.drop(copy.table);
    }
  }

  private drop(table: string): void {
    const dropped = this.duck()
      .then((duck) => duck.exec(`DROP TABLE IF EXISTS "${table}"`))
      .catch(() => undefined)
      .finally(() => this.pending.delete(dropped));
    this.pending.add(dropped);
  }

  /** Forgets every copy; the DuckDB instance holding them is closed by its owner. */
  clear(): void {
    this.generation++;
    this.copies.clear();
  }
}
