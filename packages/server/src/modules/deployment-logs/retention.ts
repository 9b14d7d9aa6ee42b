import { sql } from 'kysely';
import type { RetentionRule } from '../module.js';
import { LOG_RETENTION_MS } from './public.js';

export const deploymentLogRetention: RetentionRule[] = [
  {
    // A deployment's logs: nobody reads a build's lines once the build is a fortnight old.
    table: 'build_log',
    key: 'id',
    expired: (now) => sql`created_at < ${new Date(now - LOG_RETENTION_MS)}`,
  },
];
