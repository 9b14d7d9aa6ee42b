import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    user_attribute: UserAttributeTable;
    user_attribute_value: UserAttributeValueTable;
  }

  export interface UserAttributeTable {
    id: Generated<number>;
    account_id: number;
    name: string;
    type: AttributeType;
    display_name: string | null;
    default_value: string | null;
    description: string | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type UserAttributeRow = Selectable<UserAttributeTable>;

  export interface UserAttributeValueTable {
    attribute_id: number;
    user_id: number;
    account_id: number;
    value: Json;
    updated_at: UpdatedAt;
  }
}
