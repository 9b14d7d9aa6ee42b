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
import { Manifest, type PartitionSlot } from './manifest.js';
import { refreshKeyReader, type KeyRange } from './refresh-key.js';
import { newVersion, rollupFile, writePartition } from './storage.js';

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
  now: () => number;
  /** Between partitions: a job's heartbeat, which throws once the job is cancelled or lost. */
  beat: () => Promise<void>;
  /** Rebuild these partitions (all when empty) whatever their refresh key says: an operator's `build`. */
  force?: readonly string[] | true;
}

export interface RefreshOutcome {
  /** The partitions whose refresh key was read: those an incremental refresh still watches, and those built. */
  checked: string[];
  built: string[];
  failed: Array<{ partition: string; error: string }>;
}

/**
 * Brings one rollup of a build up to date: finds its partitions in the warehouse's range, and
 * rebuilds those that are stale (never built, asked for, or whose own refresh key value moved
 * from the one it was built under), each into a new file switched in by the manifest. With
 * `incremental`, a built partition older than `update_window` (older than the last one, without a
 * window) is not looked at again: it keeps the version it has, as Cube seals it.
 */
export async function refreshRollup(input: RefreshInput): Promise<RefreshOutcome> {
  const { definition, warehouse, manifest, buildId } = input;
  if (!definition.external) {
    throw new Error(
      `Pre-aggregation ${definition.id}: external: false (a table in the source warehouse) is not supported; remove it to keep the rollup in Plinth's rollup store`,
    );
  }
  await manifest.plan(
    { accountId: input.accountId, deploymentId: input.deploymentId, buildId, rollupId: definition.id },
    await slotsOf(input),
  );
  const partitions = await manifest.partitions(buildId, definition.id);
  const keyOf = refreshKeyReader(input.model, definition, warehouse, input.now());
  const outcome: RefreshOutcome = { checked: [], built: [], failed: [] };
  const stale: Array<{ partition: RollupPartitionRow; refreshKey: string }> = [];
  for (const [index, partition] of partitions.entries()) {
    const wanted = partition.version === null || input.force === true || input.force?.includes(partition.name) === true;
    if (!wanted && !watched(partition, index, partitions.length, input)) continue;
    // Read before the build, as Cube does: a change while it builds moves the key again and rebuilds it next time.
    const refreshKey = await keyOf(rangeOf(partition));
    outcome.checked.push(partition.name);
    if (wanted || refreshKey !== partition.refresh_key) stale.push({ partition, refreshKey });
  }
  for (const { partition, refreshKey } of stale) {
    await input.beat();
    const started = Date.now();
    try {
      const plan = rollupBuildPlan(input.model, definition.id, warehouse.dialect, rangeOf(partition));
      const { rows } = await warehouse.query(plan.sql, plan.params, { timeoutMs: 3_600_000 });
      const version = newVersion();
      const file = rollupFile(input.deploymentId, buildId, definition.id, partition.name, version);
      const written = await writePartition(input.duck, input.dataDir, file, plan.columns, rows);
      await manifest.switchTo(
        buildId,
        definition.id,
        partition.name,
        { version, refreshKey, file, rows: written.rows, bytes: written.bytes, buildMs: Date.now() - started },
        new Date(input.now()),
      );
      outcome.built.push(partition.name);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await manifest.failed(buildId, definition.id, partition.name, message, new Date(input.now()));
      outcome.failed.push({ partition: partition.name, error: message });
    }
  }
  return outcome;
}

const rangeOf = (partition: RollupPartitionRow): KeyRange =>
  partition.range_start !== null && partition.range_end !== null ? { start: partition.range_start, end: partition.range_end } : undefined;

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
