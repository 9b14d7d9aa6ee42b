import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    oidc_token_config: OidcTokenConfigTable;
  }

  /** An OpenID Connect issuer whose ID tokens the account's users may exchange (migration 0029). */
  export interface OidcTokenConfigTable {
    id: Generated<number>;
    account_id: number;
    name: string;
    issuer: string;
    audiences: Json<string[]>;
    /** Null: the issuer's discovery document names it. */
    jwks_uri: string | null;
    /** `email` (matched against the user's e-mail) or `sub` (against their externalId). */
    user_claim: Generated<string>;
    algorithms: Json<string[]>;
    enabled: Generated<boolean>;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type OidcTokenConfigRow = Selectable<OidcTokenConfigTable>;
}
