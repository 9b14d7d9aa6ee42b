import type { Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    device_authorization: DeviceAuthorizationTable;
    login_session: LoginSessionTable;
    login_token: LoginTokenTable;
    user_invite: UserInviteTable;
  }

  export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied' | 'consumed';

  export interface DeviceAuthorizationTable {
    id: Generated<number>;
    account_id: number;
    device_code_hash: string;
    user_code: string;
    client_name: string | null;
    status: Generated<DeviceAuthorizationStatus>;
    user_id: number | null;
    interval_s: number;
    last_polled_at: Timestamp | null;
    expires_at: Timestamp;
    created_at: CreatedAt;
  }

  export type DeviceAuthorizationRow = Selectable<DeviceAuthorizationTable>;

  export interface LoginSessionTable {
    id: Generated<number>;
    account_id: number;
    user_id: number;
    client_name: string | null;
    created_at: CreatedAt;
    revoked_at: Timestamp | null;
  }

  export interface LoginTokenTable {
    access_token_id: number;
    session_id: number;
  }

  export interface UserInviteTable {
    id: Generated<number>;
    account_id: number;
    user_id: number;
    token_hash: string;
    created_by_user_id: number | null;
    expires_at: Timestamp;
    used_at: Timestamp | null;
    created_at: CreatedAt;
  }
}
