import { rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { PostgresWarehouse, type DuckDBWarehouse, type Warehouse } from '@plinth/semantic';
import { badRequest } from '../../http/errors.js';
import type { WarehouseConfig } from '../deployment-variables/public.js';
import { DuckDBFile } from './duckdb-file.js';
import { replaceDuckDBFile } from './duckdb-replace.js';

interface Opened {
  /** The configuration it was opened with: a change of the deployment's variables opens another. */
  key: string;
  warehouse: Promise<Warehouse>;
}

/**
 * One warehouse per deployment per process, opened on first use and kept while the deployment's
 * `CUBEJS_DB_*` variables stay the same: a DuckDB instance or a PostgreSQL pool is costly to open
 * and is itself a pool of connections. Without variables, a deployment has an embedded DuckDB file
 * under the data dir. The data API only reads warehouses: DuckDB files are opened read-only (see
 * DuckDBFile), and whatever writes one goes through `write`.
 */
export class Warehouses {
  private readonly open = new Map<number, Opened>();

  constructor(
    private readonly dataDir: string,
    /** PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS: an unreachable PostgreSQL warehouse fails a load, never hangs it. */
    private readonly connectTimeoutMs?: number,
    /** The operator's log, for what a caller must not see (files, hosts, process ids). */
    private readonly log: (line: string) => void = (line) => process.stderr.write(`plinth-server: ${line}\n`),
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

  /**
   * A warehouse of the deployment's configuration that is not kept: the caller closes it. Work in
   * the background (building pre-aggregations) takes one, so no process keeps an embedded DuckDB
   * file open for it after it is done.
   */
  openUnkept(accountId: number, deploymentId: number, config: WarehouseConfig = { type: 'duckdb', path: null }): Promise<Warehouse> {
    return this.openWith(accountId, deploymentId, config);
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
        warn: this.warnFor(deploymentId),
      });
    }
    return DuckDBFile.open(this.duckdbPath(accountId, deploymentId, config), this.warnFor(deploymentId));
  }

  /**
   * Writes a deployment's DuckDB file (the demo's data, a test's): into a copy renamed over the file,
   * which this and every other process sharing the data dir read from their next query on.
   */
  async write(
    accountId: number,
    deploymentId: number,
    fill: (warehouse: DuckDBWarehouse) => Promise<unknown>,
    config: WarehouseConfig = { type: 'duckdb', path: null },
  ): Promise<void> {
    if (config.type !== 'duckdb') throw new Error('Only a DuckDB warehouse is written by the server');
    await replaceDuckDBFile(this.duckdbPath(accountId, deploymentId, config), fill);
  }

  /** One process serves many deployments: the operator needs to know whose warehouse failed. */
  private warnFor(deploymentId: number) {
    return (message: string) => this.log(`deployment ${deploymentId}: ${message}`);
  }

  private duckdbPath(accountId: number, deploymentId: number, config: Extract<WarehouseConfig, { type: 'duckdb' }>): string {
    if (config.path === null) return this.pathOf(deploymentId);
    const inside = relative(this.accountDir(accountId), resolve(config.path));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      // Without the directory's path: whoever queries the deployment sees this, and the server's files are none of theirs.
      throw badRequest(
        `CUBEJS_DB_DUCKDB_DATABASE_PATH must name a file under warehouses/account-${accountId} in the server's data directory, the directory of this account's DuckDB files`,
      );
    }
    return resolve(config.path);
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
