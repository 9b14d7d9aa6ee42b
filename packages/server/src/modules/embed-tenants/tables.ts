import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    embed_account: EmbedAccountTable;
    embed_tenant: EmbedTenantTable;
    embed_group: EmbedGroupTable;
    embed_user_attribute: EmbedUserAttributeTable;
    external_user: ExternalUserTable;
    external_user_group: ExternalUserGroupTable;
    external_user_attribute_value: ExternalUserAttributeValueTable;
    external_user_tenant_group: ExternalUserTenantGroupTable;
    external_user_tenant_attribute_value: ExternalUserTenantAttributeValueTable;
  }

  export interface EmbedAccountTable {
    account_id: number;
    signing_secret_sealed: string | null;
    external_user_count: Generated<number>;
  }

  export interface EmbedTenantTable {
    id: Generated<number>;
    account_id: number;
    name: string;
    created_at: CreatedAt;
  }

  export type EmbedTenantRow = Selectable<EmbedTenantTable>;

  export interface EmbedGroupTable {
    id: Generated<number>;
    account_id: number;
    embed_tenant_id: number;
    name: string;
    description: string | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type EmbedGroupRow = Selectable<EmbedGroupTable>;

  export interface EmbedUserAttributeTable {
    id: Generated<number>;
    account_id: number;
    embed_tenant_id: number;
    name: string;
    type: AttributeType;
    display_name: string | null;
    default_value: string | null;
    description: string | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type EmbedUserAttributeRow = Selectable<EmbedUserAttributeTable>;

  export interface ExternalUserTable {
    id: Generated<number>;
    account_id: number;
    embed_tenant_id: number;
    external_id: string;
    email: string | null;
    display_name: string | null;
    picture: string | null;
    /** Ephemeral users only: gone after this moment, and never counted toward the limit. */
    expires_at: Generated<Date | null>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type ExternalUserRow = Selectable<ExternalUserTable>;

  export interface ExternalUserGroupTable {
    external_user_id: number;
    group_id: number;
    account_id: number;
  }

  export interface ExternalUserAttributeValueTable {
    external_user_id: number;
    attribute_id: number;
    account_id: number;
    value: Json;
  }

  export interface ExternalUserTenantGroupTable {
    external_user_id: number;
    embed_group_id: number;
    account_id: number;
  }

  export interface ExternalUserTenantAttributeValueTable {
    external_user_id: number;
    embed_attribute_id: number;
    account_id: number;
    value: Json;
  }
}
