import type { Column } from '../../core/output.js';
import { id } from '../../core/rest.js';

export const preAggregationsPath = (deploymentId: string | undefined) =>
  `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/pre-aggregations`;

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

export const preAggregationColumns: Column[] = [
  ['ID', 'id'],
  ['Partitions', (p) => `${p['builtPartitions']}/${p['partitionCount']}`],
  ['Rows', 'rows'],
  ['Size', (p) => size(Number(p['bytes']))],
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
