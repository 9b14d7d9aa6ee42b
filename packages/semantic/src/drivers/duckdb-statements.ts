import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';

/**
 * Prepared statements kept on one DuckDB connection, by SQL text, least recently used first out.
 *
 * `runAndReadAll(sql, values)` costs three trips through the thread pool per query (split the text
 * into statements, prepare, run) and parses the SQL twice; a dashboard sends the same planned SQL
 * again and again with only its parameters changed, so preparing it once per connection leaves one
 * trip and no parsing. DuckDB rebinds a prepared statement by itself when the catalog changed since
 * it was prepared, so a cached statement never runs against a stale table.
 */
export class StatementCache {
  private readonly statements = new Map<string, DuckDBPreparedStatement>();

  constructor(
    readonly connection: DuckDBConnection,
    private readonly capacity = 64,
  ) {}

  /** Takes the statement for `sql` out of the cache, preparing it when there is none. */
  async take(sql: string): Promise<DuckDBPreparedStatement> {
    const cached = this.statements.get(sql);
    if (!cached) return this.connection.prepare(sql);
    this.statements.delete(sql);
    return cached;
  }

  /**
   * Puts back a statement that finished running. One that failed or was interrupted is not put back
   * (it may still be running on a DuckDB thread); the connection destroys it when it closes.
   */
  give(sql: string, statement: DuckDBPreparedStatement): void {
    this.statements.set(sql, statement);
    if (this.statements.size <= this.capacity) return;
    const [oldestSql, oldest] = this.statements.entries().next().value as [string, DuckDBPreparedStatement];
    this.statements.delete(oldestSql);
    oldest.destroySync();
  }

  get size(): number {
    return this.statements.size;
  }
}
