import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The tables this module owns (its index.ts lists them), merged into the store's `Database`: code
 * anywhere reads them as `import type { Database } from '../../store/schema.js'`, and no central file
 * lists them.
 */
declare module '../../store/schema.js' {
  interface Database {
    report: ReportTable;
  }

  export interface ReportTable {
    id: Generated<number>;
    account_id: number;
    deployment_id: number;
    folder_id: number | null;
    workbook_id: number | null;
    /** 12 letters and digits, stable for the report's life. */
    public_id: string;
    name: string;
    title: string | null;
    description: string | null;
    type: Generated<string>;
    source: string | null;
    /** A Cube query as JSON text, as the reference stores it. */
    json_query: string | null;
    sql_query: string | null;
    pivot_items: Json<unknown> | null;
    meta: Json<Record<string, unknown> | null> | null;
    end_result_cell: string | null;
    external_workbook_id: string | null;
    result_location: string | null;
    version: Generated<number>;
    /** The last refresh's result (columns and rows), as the data API answered it. */
    snapshot: Json<unknown> | null;
    /** Why the last refresh failed; null after a refresh that worked. */
    refresh_error: string | null;
    refreshed_by: number | null;
    /** The embed tenant whose creator-mode session made it; null for the account's own reports. */
    embed_tenant_id: ColumnType<number | null, number | null | undefined, number | null>;
    refreshed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    created_by: number | null;
    updated_by: number | null;
    created_at: CreatedAt;
    updated_at: UpdatedAt;
  }

  export type ReportRow = Selectable<ReportTable>;
}
