import { DuckDBWarehouse } from './duckdb.js';
import { PostgresWarehouse } from './postgres.js';
import type { Warehouse } from './warehouse.js';

/** `duckdb:<file>` (or `duckdb:` / `duckdb::memory:` for in-memory) or a `postgres://` URL. */
export async function openWarehouse(spec: string): Promise<Warehouse> {
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) return new PostgresWarehouse({ connectionString: spec });
  if (spec.startsWith('duckdb:')) {
    const path = spec.slice('duckdb:'.length);
    return DuckDBWarehouse.open({ path: path === '' ? ':memory:' : path });
  }
  throw new Error(`Unknown warehouse '${spec}': use duckdb:<file> or postgres://…`);
}
