import type { RollupDefinition, RollupPartition } from './types.js';

/** The partitions covering [rangeStart, rangeEnd] (wall-clock ISO strings), by `partition_granularity`. */
export function rollupPartitions(definition: RollupDefinition, rangeStart: string, rangeEnd: string): RollupPartition[] {
  void [definition, rangeStart, rangeEnd];
  throw new Error('not yet');
}
