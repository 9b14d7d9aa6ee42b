import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    workbook: WorkbookTable;
    dashboard: DashboardTable;
    dashboard_version: DashboardVersionTable;
  }

  export interface WorkbookTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    folder_id: number | null;
    name: string;
    type: Generated<string>;
    meta: ColumnType<Record<string, unknown>, string | undefined, string>;
    calculated_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
    /** The dashboard being edited (DashboardConfig); publishing freezes it into a dashboard_version. */
    dashboard_draft: Json<Record<string, unknown> | null> | null;
    /** The embed tenant whose creator-mode session made it; null for the account's own workbooks. */
    embed_tenant_id: ColumnType<number | null, number | null | undefined, number | null>;
    created_by: number | null;
    updated_by: number | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type WorkbookRow = Selectable<WorkbookTable>;

  export type DashboardStatus = 'draft' | 'published' | 'archived';

  export interface DashboardTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    workbook_id: number;
    public_id: string;
    status: ColumnType<DashboardStatus, DashboardStatus | undefined, DashboardStatus>;
    allow_embed: Generated<boolean>;
    title: string | null;
    description: string | null;
    /** Its workbook's embed tenant, copied when first published. */
    embed_tenant_id: ColumnType<number | null, number | null | undefined, number | null>;
    created_by: number | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type DashboardRow = Selectable<DashboardTable>;

  export interface DashboardVersionTable {
    id: Generated<number>;
    dashboard_id: number;
    version_number: number;
    title: string | null;
    description: string | null;
    config: Json<Record<string, unknown>>;
    report_snapshots: ColumnType<unknown[], string | undefined, string>;
    published_by: number | null;
    created_at: CreatedAt;
  }

  export type DashboardVersionRow = Selectable<DashboardVersionTable>;
}
