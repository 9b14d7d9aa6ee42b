import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';

export const modelUploadRetention: RetentionRule[] = [
  {
    // Upload sessions are refused from expires_at on (UPLOAD_SESSION_TTL_MS after start), finished
    // or not: staged files are blobs of the account already, so the row and its file list go.
    table: 'model_upload',
    key: 'id',
    expired: (now) => sql`expires_at < ${new Date(now)}`,
  },
];
