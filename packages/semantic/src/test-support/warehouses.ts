import { randomBytes } from 'node:crypto';
import { DuckDBWarehouse } from '../drivers/duckdb.js';
import { PostgresWarehouse } from '../drivers/postgres.js';
import type { Warehouse } from '../drivers/warehouse.js';

/**
 * The test kit's warehouse fixtures: an empty warehouse of each kind a test runs on, for it to
 * create the tables its model reads. Tests on one PostgreSQL database run at once, so each opened
 * PostgreSQL warehouse keeps its tables in a schema of its own.
 */
export interface ScratchWarehouse {
  readonly name: 'duckdb' | 'postgres';
  readonly warehouse: Warehouse;
  /** The PostgreSQL schema holding this warehouse's tables; DuckDB's are in its default schema. */
  readonly schema: string | undefined;
  /** A table name as hand-written SQL must spell it in this warehouse. */
  table(name: string): string;
  /** Drops the schema (PostgreSQL) and closes the warehouse. */
  close(): Promise<void>;
}

export interface WarehouseTarget {
  readonly name: ScratchWarehouse['name'];
  open(): Promise<ScratchWarehouse>;
}

export interface WarehouseTargetOptions {
  /** Begins each PostgreSQL schema's name, so a schema a crashed run left names the test that made it. */
  schemaPrefix: string;
  /** PostgreSQL connections of the pool; 4 unless given. */
  connections?: number;
}

/** An in-memory DuckDB always; PostgreSQL when DATABASE_URL is set, in a fresh schema. */
export function warehouseTargets({ schemaPrefix, connections = 4 }: WarehouseTargetOptions): WarehouseTarget[] {
  const targets: WarehouseTarget[] = [
    {
      name: 'duckdb',
      open: async () => {
        const warehouse = await DuckDBWarehouse.open();
        return { name: 'duckdb', warehouse, schema: undefined, table: (name) => name, close: () => warehouse.close() };
      },
    },
  ];
  const url = process.env['DATABASE_URL'];
  if (url) {
    targets.push({
      name: 'postgres',
      open: async () => {
        const warehouse = new PostgresWarehouse({ connectionString: url, max: connections });
        const schema = `${schemaPrefix}_${randomBytes(6).toString('hex')}`;
        await warehouse.query(`CREATE SCHEMA "${schema}"`, []);
        return {
          name: 'postgres',
          warehouse,
          schema,
          table: (name) => `"${schema}".${name}`,
          close: async () => {
            await warehouse.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`, []);
            await warehouse.close();
          },
        };
      },
    });
  }
  return targets;
}
