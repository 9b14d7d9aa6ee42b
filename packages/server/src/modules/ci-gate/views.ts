import type { CiRunRow } from '../../store/schema.js';
import { LEASE_SECONDS } from './lease.js';

export interface CiRunView {
  runId: number;
  deploymentId: number;
  ref: string;
  state: CiRunRow['state'];
  leaseSeconds: number;
  leaseUntil: string;
  createdAt: string;
  finishedAt: string | null;
}

export const view = (row: CiRunRow): CiRunView => ({
  runId: row.id,
  deploymentId: row.deployment_id,
  ref: row.ref,
  state: row.state,
  leaseSeconds: LEASE_SECONDS,
  leaseUntil: new Date(row.lease_until).toISOString(),
  createdAt: new Date(row.created_at).toISOString(),
  finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
});
