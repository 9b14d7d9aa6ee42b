import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBWarehouse } from '../drivers/duckdb.js';
import type { Warehouse } from '../drivers/warehouse.js';
import type { DataModel } from '../model.js';
import { rollupBuildPlan, rollupRangePlan } from '../rollups/build.js';
import { rollupDefinitions } from '../rollups/definitions.js';
import { rollupPartitions } from '../rollups/partitions.js';
import type { AvailableRollup, RollupColumn, RollupPartition } from '../rollups/types.js';

/**
 * A rollup store for tests, built the way the server builds one: each partition's build query runs
 * on the source warehouse and its rows become a Parquet file, read back by an in-process DuckDB.
 * A DuckDB source writes the file itself (types kept as the source has them); rows from PostgreSQL
 * travel as JSON and are typed by the rollup's columns.
 */
export interface TestRollupStore {
  readonly duckdb: DuckDBWarehouse;
  build(id: string, options?: { timezone?: string; partitions?: (all: RollupPartition[]) => RollupPartition[] }): Promise<AvailableRollup>;
  /** Builds the whole rollup as a table of the source warehouse (`external: false`). */
  buildInWarehouse(id: string, table: string): Promise<AvailableRollup>;
  close(): Promise<void>;
}

function wall(value: unknown): string {
  const text = value instanceof Date ? value.toISOString() : String(value);
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?/.exec(text);
  if (!match) throw new Error(`not a timestamp: ${text}`);
  return `${match[1]}T${match[2]}${(match[3] ?? '.000').padEnd(4, '0').slice(0, 4)}`;
}

function storeType(column: RollupColumn): string {
  if (column.role === 'time') return 'TIMESTAMP';
  if (column.type === 'list') return 'VARCHAR[]';
  if (column.type === 'boolean') return 'BOOLEAN';
  if (column.type === 'string') return 'VARCHAR';
  if (column.type === 'time') return 'TIMESTAMP';
  return column.part === 'count' || column.part === 'distinct_count' ? 'BIGINT' : 'DECIMAL(38,6)';
}

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

export async function openRollupStore(model: DataModel, source: Warehouse): Promise<TestRollupStore> {
  const dir = await mkdtemp(join(tmpdir(), 'plinth-rollups-'));
  const duckdb = await DuckDBWarehouse.open();
  let files = 0;
  const writePartition = async (id: string, partition: RollupPartition | undefined, timezone: string): Promise<string> => {
    const plan = rollupBuildPlan(model, id, source.dialect, partition, { timezone });
    const file = join(dir, `${id}.${files++}.parquet`);
    if (source instanceof DuckDBWarehouse) {
      const table = `build_${files}`;
      await source.query(`CREATE TABLE ${table} AS ${plan.sql}`, plan.params);
      await source.exec(`COPY ${table} TO ${literal(file)} (FORMAT parquet)`);
      await source.exec(`DROP TABLE ${table}`);
      return file;
    }
    const { rows } = await source.query(plan.sql, plan.params);
    const json = `${file}.json`;
    await writeFile(json, rows.map((row) => JSON.stringify(row)).join('\n'));
    const columns = plan.columns.map((column) => `${literal(column.name)}: ${literal(storeType(column))}`).join(', ');
    await duckdb.exec(
      `COPY (SELECT * FROM read_json(${literal(json)}, format = 'newline_delimited', columns = {${columns}})) TO ${literal(file)} (FORMAT parquet)`,
    );
    return file;
  };
  return {
    duckdb,
    async build(id, options = {}) {
      const timezone = options.timezone ?? 'UTC';
      const definition = rollupDefinitions(model).find((candidate) => candidate.id === id);
      if (!definition) throw new Error(`no rollup ${id}`);
      if (!definition.partitionGranularity) {
        const file = await writePartition(id, undefined, timezone);
        return { id, from: `read_parquet([${literal(file)}])`, versions: ['v1'], timezone };
      }
      const range = rollupRangePlan(model, id, source.dialect, { timezone });
      const [bounds] = (await source.query(range.sql, range.params)).rows;
      const all = rollupPartitions(definition, wall(bounds?.['start']), wall(bounds?.['end']));
      const partitions = options.partitions ? options.partitions(all) : all;
      const built: string[] = [];
      for (const partition of partitions) built.push(await writePartition(id, partition, timezone));
      return {
        id,
        from: `read_parquet([${built.map(literal).join(', ')}])`,
        covers: { start: partitions[0]?.start ?? '', end: partitions.at(-1)?.end ?? '' },
        versions: partitions.map((partition) => `${partition.name}_v1`),
        timezone,
      };
    },
    async buildInWarehouse(id, table) {
      const plan = rollupBuildPlan(model, id, source.dialect);
      // CREATE TABLE AS takes no bound parameters on PostgreSQL; a whole rollup's build query has none.
      if (plan.params.length > 0) throw new Error(`the build query of ${id} has parameters`);
      await source.query(`CREATE TABLE ${table} AS ${plan.sql}`, []);
      return { id, from: table, versions: ['w1'], inWarehouse: true };
    },
    async close() {
      await duckdb.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
