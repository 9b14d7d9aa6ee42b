import type { Column } from '../../core/output.js';
import { id } from '../../core/rest.js';

export const preAggregationsPath = (deploymentId: string | undefined) =>
  `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/pre-aggregations`;

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

/** A DuckDB warehouse tells no table's size: a rollup kept there shows none rather than 0 B. */
const sizeOf = (p: Record<string, unknown>) => {
  const partitions = (p['partitions'] ?? []) as Array<{ bytes: number | null }>;
  return p['storedIn'] === 'warehouse' && partitions.every((partition) => partition.bytes === null) ? '-' : size(Number(p['bytes']));
};

export const preAggregationColumns: Column[] = [
  ['ID', 'id'],
  ['Stored in', (p) => (p['storedIn'] === 'warehouse' ? 'warehouse' : 'rollup store')],
  ['Partitions', (p) => `${p['builtPartitions']}/${p['partitionCount']}`],
  ['Rows', 'rows'],
  ['Size', sizeOf],
  ['Last refresh', 'lastRefreshAt'],
  ['Build ms', 'buildTimeMs'],
  ['Error', 'lastError'],
];

export const jobColumns: Column[] = [
  ['Job', 'id'],
  ['Pre-aggregation', 'preAggregation'],
  ['Build', 'buildId'],
  ['Partitions', (j) => (Array.isArray(j['partitions']) ? (j['partitions'] as string[]).join(',') : 'stale')],
  ['State', 'state'],
  ['Attempts', 'attempts'],
  ['Created', 'createdAt'],
  ['Finished', 'finishedAt'],
  ['Error', 'lastError'],
];
