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
import { refreshKeyValue } from './refresh-key.js';
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
  refreshKey: string;
  built: string[];
  failed: Array<{ partition: string; error: string }>;
}

/**
 * Brings one rollup of a build up to date: finds its partitions in the warehouse's range, and
 * rebuilds those that are stale (never built, built under another refresh key value, or asked
 * for), each into a new file switched in by the manifest. With `incremental`, a partition older
 * than `update_window` (the last one only, without a window) keeps the version it has.
 */
export async function refreshRollup(input: RefreshInput): Promise<RefreshOutcome> {
  const { definition, warehouse, manifest, buildId } = input;
  if (!definition.external) {
    throw new Error(
      `Pre-aggregation ${definition.id}: external: false (a table in the source warehouse) is not supported; remove it to keep the rollup in Plinth's rollup store`,
    );
  }
  const refreshKey = await refreshKeyValue(input.model, definition, warehouse, input.now());
  await manifest.plan(
    { accountId: input.accountId, deploymentId: input.deploymentId, buildId, rollupId: definition.id },
    await slotsOf(input),
  );
  const partitions = await manifest.partitions(buildId, definition.id);
  const stale = partitions.filter((p, i) => isStale(p, i, partitions, refreshKey, input));
  const outcome: RefreshOutcome = { refreshKey, built: [], failed: [] };
  for (const partition of stale) {
    await input.beat();
    const started = Date.now();
    try {
      const range =
        partition.range_start !== null && partition.range_end !== null
          ? { start: partition.range_start, end: partition.range_end }
          : undefined;
      const plan = rollupBuildPlan(input.model, definition.id, warehouse.dialect, range);
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

function isStale(
  partition: RollupPartitionRow,
  index: number,
  all: readonly RollupPartitionRow[],
  refreshKey: string,
  input: RefreshInput,
): boolean {
  if (partition.version === null) return true;
  if (input.force === true || input.force?.includes(partition.name)) return true;
  if (partition.refresh_key === refreshKey) return false;
  const { incremental, updateWindowSeconds } = input.definition.refreshKey;
  if (!incremental || partition.range_end === null) return true;
  if (updateWindowSeconds === undefined) return index === all.length - 1;
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
