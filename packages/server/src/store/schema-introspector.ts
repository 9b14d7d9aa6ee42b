import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Dialect,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

const KYSELY_TABLES = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);

interface ColumnRow {
  table: string;
  table_type: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  column_description: string | null;
  auto_incrementing: string | null;
}

/**
 * Kysely's PostgreSQL introspector reads every table of every schema on the database and calls
 * `pg_get_serial_sequence` and `has_schema_privilege` on each by name. Its migrator uses it at every
 * start to find its own tables, so a server starting while anything else on the database drops a
 * table or schema (another application, a test file dropping its schema) failed its migration with
 * "relation … does not exist". This one reads the store's own schema, which holds all of Plinth's
 * tables, and nothing another process drops can reach its queries.
 */
export class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    // The introspector runs catalog queries, which the store's typed handle does not describe.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly db: Kysely<any>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const rows = await sql<{ nspname: string }>`select nspname from pg_catalog.pg_namespace`.execute(this.db);
    return rows.rows.map((row) => ({ name: row.nspname }));
  }

  async getTables(options: { withInternalKyselyTables?: boolean } = {}): Promise<TableMetadata[]> {
    // The where clause narrows to one schema before the select list's functions see a name.
    const rows = await sql<ColumnRow>`
      select c.relname as table, c.relkind as table_type, a.attname as column,
             a.attnotnull as not_null, a.atthasdef as has_default,
             typ.typname as type, dtns.nspname as type_schema,
             col_description(a.attrelid, a.attnum) as column_description,
             pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as auto_incrementing
        from pg_catalog.pg_attribute a
        join pg_catalog.pg_class c on a.attrelid = c.oid
        join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
        join pg_catalog.pg_type typ on a.atttypid = typ.oid
        join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
       where ns.nspname = ${this.schema}
         and c.relkind in ('r', 'v', 'p')
         and a.attnum >= 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows.rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: this.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing !== null,
        ...(row.column_description === null ? {} : { comment: row.column_description }),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: { withInternalKyselyTables?: boolean }): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** `dialect` with its introspection confined to `schema`. */
export function introspectingSchema(dialect: Dialect, schema: string): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => new SchemaIntrospector(db, schema),
  };
}
