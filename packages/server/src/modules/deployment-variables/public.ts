/** What other modules (the data API) use of a deployment's variables. */
export interface DeploymentVariables {
  /**
   * The deployment's warehouse, as its `CUBEJS_DB_*` variables configure it (see warehouse.ts for
   * every rule). Variables are checked when they are set, so a stored combination is always valid.
   * 404 when the deployment is not the account's.
   */
  warehouseConfig(accountId: number, deploymentId: number): Promise<WarehouseConfig>;
}

export type WarehouseConfig = DuckDbWarehouse | PostgresWarehouse;

export interface DuckDbWarehouse {
  type: 'duckdb';
  /** `CUBEJS_DB_DUCKDB_DATABASE_PATH`; null: the embedded default of the data API. */
  path: string | null;
}

export interface PostgresWarehouse {
  type: 'postgres';
  host: string;
  port: number;
  database: string;
  user: string;
  /** null when `CUBEJS_DB_PASS` is not set (e.g. trust or certificate authentication). */
  password: string | null;
  ssl: boolean;
  /** Most connections the pool of one server process opens (`CUBEJS_DB_MAX_POOL`). */
  poolSize: number;
  /** Longest a query may run before the warehouse cancels it (`CUBEJS_DB_QUERY_TIMEOUT`). */
  statementTimeoutMs: number;
}

export { warehouseFromVariables } from './warehouse.js';
