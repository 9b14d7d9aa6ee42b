import { randomBytes } from 'node:crypto';
import { compile } from '../compiler/compile.js';
import { DuckDBWarehouse } from '../drivers/duckdb.js';
import { PostgresWarehouse } from '../drivers/postgres.js';
import type { Warehouse } from '../drivers/warehouse.js';
import type { DataModel } from '../model.js';
import { writeSample } from '../sample/sample.js';

/** Small enough for a quick test run, big enough that every status, city and category occurs. */
export const TEST_LINE_ITEMS = 20_000;

export interface SampleDb {
  readonly name: 'duckdb' | 'postgres';
  readonly warehouse: Warehouse;
  readonly model: DataModel;
  /** Table name as hand-written SQL must spell it in this warehouse. */
  table(name: string): string;
  close(): Promise<void>;
}

export interface SampleTarget {
  readonly name: 'duckdb' | 'postgres';
  open(): Promise<SampleDb>;
}

async function prepare(
  name: SampleDb['name'],
  warehouse: Warehouse,
  schema: string | undefined,
  drop: () => Promise<void>,
): Promise<SampleDb> {
  const files = await writeSample(warehouse, { lineItems: TEST_LINE_ITEMS, schema });
  const compiled = compile(files);
  if (!compiled.valid) throw new Error(`sample model invalid: ${JSON.stringify(compiled.errors)}`);
  return {
    name,
    warehouse,
    model: compiled.model,
    table: (t) => (schema ? `"${schema}".${t}` : t),
    close: async () => {
      await drop();
      await warehouse.close();
    },
  };
}

/** DuckDB always; PostgreSQL when DATABASE_URL is set, each run in its own schema. */
export function sampleTargets(): SampleTarget[] {
  const targets: SampleTarget[] = [
    {
      name: 'duckdb',
      open: async () => prepare('duckdb', await DuckDBWarehouse.open(), undefined, async () => undefined),
    },
  ];
  const url = process.env['DATABASE_URL'];
  if (url) {
    targets.push({
      name: 'postgres',
      open: async () => {
        const warehouse = new PostgresWarehouse({ connectionString: url, max: 4 });
        const schema = `semantic_test_${randomBytes(6).toString('hex')}`;
        return prepare('postgres', warehouse, schema, async () => {
          await warehouse.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`, []);
        });
      },
    });
  }
  return targets;
}

/** Rows as sorted lists of normalized values, so an engine answer and hand-written SQL compare whatever their column names. */
export function sortedValues(rows: ReadonlyArray<Record<string, unknown>>): string[] {
  return normalizeRows(rows)
    .map((row) => JSON.stringify(Object.values(row)))
    .sort();
}

/** Makes driver output comparable: numbers rounded, timestamps in one format. */
export function normalizeRows(rows: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, normalizeValue(v)])));
}

function normalizeValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v).toFixed(4);
  if (typeof v === 'number') return v.toFixed(4);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(v)) return Number(v).toFixed(4);
  if (typeof v === 'string') {
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?$/.exec(v);
    if (m) return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}`;
  }
  return v;
}
