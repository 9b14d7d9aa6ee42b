import { toIso, toIsoOrNull } from '../../http/common-schemas.js';
import type { ApiKeyRow, ScimTokenRow } from '../../store/schema.js';

export function toApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    deploymentIds: row.deployment_ids,
    permissions: row.permissions,
    prefix: row.key_prefix,
    userId: row.user_id,
    createdAt: toIso(row.created_at),
    lastUsedAt: toIsoOrNull(row.last_used_at),
    revokedAt: toIsoOrNull(row.revoked_at),
  };
}

export function toScimToken(row: ScimTokenRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    createdAt: toIso(row.created_at),
    lastUsedAt: toIsoOrNull(row.last_used_at),
    revokedAt: toIsoOrNull(row.revoked_at),
  };
}
