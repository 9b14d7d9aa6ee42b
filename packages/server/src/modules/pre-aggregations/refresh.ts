import {
  rollupBuildPlan,
  rollupPartitions,
  rollupRangePlan,
  type DataModel,
  type DuckDBWarehouse,
  type RollupDefinition,
  type Warehouse,
} from '@plinth/semantic';
import type { RollupPartitionRow } from '../../store/schema.js';
import { Manifest, type BuiltVersion, type PartitionSlot } from './manifest.js';
import { refreshKeyReader, type KeyRange } from './refresh-key.js';
import { newVersion, rollupFile, writePartition } from './storage.js';
import { assertWritable, createTable, inWarehouseProblem, warehouseTable } from './warehouse-tables.js';

/** What one refresh of a rollup works with. */
export interface RefreshInput {
  accountId: number;
  deploymentId: number;
  buildId: number;
  model: DataModel;
  definition: RollupDefinition;
  warehouse: Warehouse;
  duck: DuckDBWarehouse;
  dataDir: string;
  manifest: Manifest;
  /**
   * `external: false`: runs `work` on the source warehouse, able to write, and resolves once what
   * it wrote is there for readers (a DuckDB file is written in a copy renamed over it).
   */
  writeWarehouse: <T>(work: (warehouse: Warehouse) => Promise<T>) => Promise<T>;
  now: () => number;
  /** Between partitions: a job's heartbeat, which throws once the job is cancelled or lost. */
  beat: () => Promise<void>;
  /** Rebuild these partitions (all when empty) whatever their refresh key says: an operator's `build`. */
  force?: readonly string[] | true;
}

/** Longest a partition's build query may run. */
const BUILD_TIMEOUT_MS = 3_600_000;

export interface RefreshOutcome {
  /** The partitions whose refresh key was read: those an incremental refresh still watches, and those built. */
  checked: string[];
  built: string[];
  failed: Array<{ partition: string; error: string }>;
}

/**
 * Brings one rollup of a build up to date: finds its partitions in the warehouse's range, and
 * rebuilds those that are stale (never built, asked for, or whose own refresh key value moved
 * from the one it was built under), each into a new file (or, `external: false`, a new table of
 * the source warehouse) switched in by the manifest. With `incremental`, a built partition older
 * than `update_window` (older than the last one, without a window) is not looked at again: it
 * keeps the version it has, as Cube seals it.
 */
export async function refreshRollup(input: RefreshInput): Promise<RefreshOutcome> {
  const { definition, warehouse, manifest, buildId } = input;
  if (!definition.external) {
    const problem = inWarehouseProblem(definition, warehouse);
    if (problem) throw new Error(problem);
    await assertWritable(definition, warehouse);
  }
  await manifest.plan(
    { accountId: input.accountId, deploymentId: input.deploymentId, buildId, rollupId: definition.id },
    await slotsOf(input),
  );
  const partitions = await manifest.partitions(buildId, definition.id);
  const keyOf = refreshKeyReader(input.model, definition, warehouse, input.now());
  const outcome: RefreshOutcome = { checked: [], built: [], failed: [] };
  const stale: Stale[] = [];
  for (const [index, partition] of partitions.entries()) {
    const wanted = partition.version === null || input.force === true || input.force?.includes(partition.name) === true;
    if (!wanted && !watched(partition, index, partitions.length, input)) continue;
    // Read before the build, as Cube does: a change while it builds moves the key again and rebuilds it next time.
    const refreshKey = await keyOf(rangeOf(partition));
    outcome.checked.push(partition.name);
    if (wanted || refreshKey !== partition.refresh_key) stale.push({ partition, refreshKey });
  }
  if (definition.external) await buildFiles(input, stale, outcome);
  else await buildTables(input, stale, outcome);
  for (const { partition, error } of outcome.failed) await manifest.failed(buildId, definition.id, partition, error, new Date(input.now()));
  return outcome;
}

async function switchTo(input: RefreshInput, partition: string, version: BuiltVersion, outcome: RefreshOutcome): Promise<void> {
  await input.manifest.switchTo(input.buildId, input.definition.id, partition, version, new Date(input.now()));
  outcome.built.push(partition);
}

/** A partition to build, with the refresh key value read for it. */
interface Stale {
  partition: RollupPartitionRow;
  refreshKey: string;
}

const rangeOf = (partition: RollupPartitionRow): KeyRange =>
  partition.range_start !== null && partition.range_end !== null ? { start: partition.range_start, end: partition.range_end } : undefined;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Each partition's rows read from the warehouse into a new Parquet file of the rollup store, switched in at once. */
async function buildFiles(input: RefreshInput, stale: readonly Stale[], outcome: RefreshOutcome) {
  for (const { partition, refreshKey } of stale) {
    await input.beat();
    const started = Date.now();
    try {
      const plan = rollupBuildPlan(input.model, input.definition.id, input.warehouse.dialect, rangeOf(partition));
      const { rows } = await input.warehouse.query(plan.sql, plan.params, { timeoutMs: BUILD_TIMEOUT_MS });
      const version = newVersion();
      const file = rollupFile(input.deploymentId, input.buildId, input.definition.id, partition.name, version);
      const written = await writePartition(input.duck, input.dataDir, file, plan.columns, rows);
      const built = { version, refreshKey, file, rows: written.rows, bytes: written.bytes, buildMs: Date.now() - started };
      await switchTo(input, partition.name, built, outcome);
    } catch (error) {
      outcome.failed.push({ partition: partition.name, error: messageOf(error) });
    }
  }
}

/**
 * `external: false`: each partition built as a new table of the source warehouse, all in one write
 * (one copy of a DuckDB file), switched in once the write is done. Tables of a write that fails
 * as a whole (a cancelled job) are retired like replaced ones, so none is left behind.
 */
async function buildTables(input: RefreshInput, stale: readonly Stale[], outcome: RefreshOutcome) {
  if (!stale.length) return;
  const { definition } = input;
  const built: Array<{ partition: string; version: BuiltVersion }> = [];
  try {
    await input.writeWarehouse(async (target) => {
      for (const { partition, refreshKey } of stale) {
        await input.beat();
        const started = Date.now();
        const version = newVersion();
        const table = warehouseTable(partition.name, version);
        try {
          const plan = rollupBuildPlan(input.model, definition.id, target.dialect, rangeOf(partition));
          const made = await createTable(target, table, plan, BUILD_TIMEOUT_MS);
          built.push({
            partition: partition.name,
            version: { version, refreshKey, file: null, table, rows: made.rows, bytes: made.bytes, buildMs: Date.now() - started },
          });
        } catch (error) {
          outcome.failed.push({
            partition: partition.name,
            error: `Pre-aggregation ${definition.id}: its table ${table} could not be built in the source warehouse: ${messageOf(error)}`,
          });
        }
      }
    });
  } catch (error) {
    const tables = built.map(({ version }) => version.table ?? null);
    await input.manifest.retireTables(input.accountId, input.deploymentId, tables, new Date(input.now()));
    throw error;
  }
  for (const { partition, version } of built) await switchTo(input, partition, version, outcome);
}

/** The partitions of the rollup's build range: one when unpartitioned, none when the range is empty. */
async function slotsOf({ model, definition, warehouse }: RefreshInput): Promise<PartitionSlot[]> {
  if (!definition.partitionGranularity) return [{ name: definition.tableName, start: null, end: null }];
  const plan = rollupRangePlan(model, definition.id, warehouse.dialect);
  const { rows } = await warehouse.query(plan.sql, plan.params);
  const start = wallClock(rows[0]?.['start']);
  const end = wallClock(rows[0]?.['end']);
  if (start === null || end === null) return [];
  return rollupPartitions(definition, start, end).map(({ name, start, end }) => ({ name, start, end }));
}

/**
 * Whether a built partition's refresh key is read again: always, unless the refresh is incremental;
 * then only while the partition ends within `update_window` of now (the last partition, without a window).
 */
function watched(partition: RollupPartitionRow, index: number, count: number, input: RefreshInput): boolean {
  const { incremental, updateWindowSeconds } = input.definition.refreshKey;
  if (!incremental || partition.range_end === null) return true;
  if (updateWindowSeconds === undefined) return index === count - 1;
  const windowStart = new Date(input.now() - updateWindowSeconds * 1000).toISOString().slice(0, 23);
  return partition.range_end > windowStart;
}

/** A driver's time value as the engine's wall-clock ISO text (`2024-01-01T00:00:00.000`). */
export function wallClock(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = value instanceof Date ? value.toISOString() : String(value);
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?/.exec(text);
  if (!match) return null;
  return `${match[1]}T${match[2] ?? '00:00:00'}.${(match[3] ?? '').padEnd(3, '0').slice(0, 3)}`;
}
