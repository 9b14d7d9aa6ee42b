import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    user_group: UserGroupTable;
    group_member: GroupMemberTable;
  }

  export interface UserGroupTable {
    id: Generated<number>;
    account_id: number;
    uuid: Generated<string>;
    name: string;
    description: string | null;
    external_id: string | null;
    version: Generated<number>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type UserGroupRow = Selectable<UserGroupTable>;

  export interface GroupMemberTable {
    group_id: number;
    user_id: number;
    account_id: number;
    created_at: CreatedAt;
  }
}
