import type { Generated } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    resource_policy: ResourcePolicyTable;
  }

  /** What a user or a group may do on a resource (migration 0023): one action per subject and resource. */
  export interface ResourcePolicyTable {
    id: Generated<number>;
    account_id: number;
    user_id: number | null;
    group_id: number | null;
    /** The reference's resource type: `Global` or `Deployment` (content types later). */
    resource_type: string;
    /** The resource's id; 0 for Global. */
    resource_id: number;
    action: string;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }
}
