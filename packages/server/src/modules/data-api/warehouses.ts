import { mkdir, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { DuckDBWarehouse, PostgresWarehouse, type Warehouse } from '@plinth/semantic';
import { badRequest } from '../../http/errors.js';
import type { WarehouseConfig } from '../deployment-variables/public.js';

interface Opened {
  /** The configuration it was opened with: a change of the deployment's variables opens another. */
  key: string;
  warehouse: Promise<Warehouse>;
}

/**
 * One warehouse per deployment per process, opened on first use and kept while the deployment's
 * `CUBEJS_DB_*` variables stay the same: a DuckDB instance or a PostgreSQL pool is costly to open
 * and is itself a pool of connections. Without variables, a deployment has an embedded DuckDB file
 * under the data dir.
 */
export class Warehouses {
  private readonly open = new Map<number, Opened>();

  constructor(
    private readonly dataDir: string,
    /** PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS: an unreachable PostgreSQL warehouse fails a load, never hangs it. */
    private readonly connectTimeoutMs?: number,
  ) {}

  /** The file of a deployment's embedded warehouse. */
  pathOf(deploymentId: number): string {
    return join(this.dataDir, 'warehouses', `${deploymentId}.duckdb`);
  }

  /**
   * Where an account's own DuckDB files must lie: a DuckDB path is a file of the server, so one
   * account must never name another's file, or any file the server can read.
   */
  accountDir(accountId: number): string {
    return join(this.dataDir, 'warehouses', `account-${accountId}`);
  }

  get(accountId: number, deploymentId: number, config: WarehouseConfig = { type: 'duckdb', path: null }): Promise<Warehouse> {
    const key = JSON.stringify(config);
    const known = this.open.get(deploymentId);
    if (known?.key === key) return known.warehouse;
    if (known) void known.warehouse.then((w) => w.close()).catch(() => undefined);
    const warehouse = this.openWith(accountId, deploymentId, config);
    this.open.set(deploymentId, { key, warehouse });
    warehouse.catch(() => {
      if (this.open.get(deploymentId)?.warehouse === warehouse) this.open.delete(deploymentId);
    });
    return warehouse;
  }

  private async openWith(accountId: number, deploymentId: number, config: WarehouseConfig): Promise<Warehouse> {
    if (config.type === 'postgres') {
      const url = new URL('postgres://');
      url.hostname = config.host;
      url.port = String(config.port);
      url.pathname = `/${encodeURIComponent(config.database)}`;
      url.username = encodeURIComponent(config.user);
      if (config.password !== null) url.password = encodeURIComponent(config.password);
      if (config.ssl) url.searchParams.set('sslmode', 'require');
      return new PostgresWarehouse({
        connectionString: url.toString(),
        max: config.poolSize,
        connectTimeoutMs: this.connectTimeoutMs,
        // One process serves many deployments: the operator needs to know whose warehouse went away.
        warn: (message) => process.stderr.write(`plinth-server: deployment ${deploymentId}: ${message}\n`),
      });
    }
    if (config.path === null) {
      await mkdir(join(this.dataDir, 'warehouses'), { recursive: true });
      return DuckDBWarehouse.open({ path: this.pathOf(deploymentId) });
    }
    const root = this.accountDir(accountId);
    const inside = relative(root, resolve(config.path));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      throw badRequest(`CUBEJS_DB_DUCKDB_DATABASE_PATH must name a file under ${root}, the directory of this account's DuckDB files`);
    }
    return DuckDBWarehouse.open({ path: resolve(config.path) });
  }

  /**
   * A deleted deployment's warehouse: closed in this process, and its embedded DuckDB file removed
   * with the write-ahead log beside it. A file the deployment's variables named under the account's
   * directory is the account's, not the deployment's, and stays.
   */
  async discard(deploymentId: number): Promise<void> {
    const known = this.open.get(deploymentId);
    this.open.delete(deploymentId);
    await (await known?.warehouse.catch(() => undefined))?.close();
    const file = this.pathOf(deploymentId);
    await Promise.all([rm(file, { force: true }), rm(`${file}.wal`, { force: true })]);
  }

  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(async ({ warehouse }) => (await warehouse.catch(() => undefined))?.close()));
  }
}
