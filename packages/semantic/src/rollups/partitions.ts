import { add, boundFrom, formatWall, startOf } from '../planner/dates.js';
import type { Granularity } from '../planner/query.js';
import type { RollupDefinition, RollupPartition } from './types.js';

/** Cube's partition suffixes: the start of the partition down to the granularity. */
function suffix(wall: number, granularity: Granularity): string {
  const text = formatWall(wall).replace(/[-T:.]/g, '');
  const digits: Record<Granularity, number> = { year: 4, quarter: 6, month: 6, week: 8, day: 8, hour: 10, minute: 12, second: 14 };
  return text.slice(0, digits[granularity]);
}

/**
 * The partitions covering the wall-clock range [rangeStart, rangeEnd] (both included, as the min and
 * max of the time dimension are), by `partition_granularity`; a single partition named after the
 * table when the rollup is not partitioned. Each partition is half-open: `start` included, `end` excluded.
 */
export function rollupPartitions(definition: RollupDefinition, rangeStart: string, rangeEnd: string): RollupPartition[] {
  const granularity = definition.partitionGranularity;
  const from = boundFrom(rangeStart);
  const to = boundFrom(rangeEnd);
  if (!granularity) {
    return [{ name: definition.tableName, start: formatWall(from), end: formatWall(to + 1) }];
  }
  const partitions: RollupPartition[] = [];
  for (let start = startOf(from, granularity); start <= to; start = add(start, 1, granularity)) {
    partitions.push({
      name: `${definition.tableName}${suffix(start, granularity)}`,
      start: formatWall(start),
      end: formatWall(add(start, 1, granularity)),
    });
  }
  return partitions;
}
