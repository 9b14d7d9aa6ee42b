import { compile } from '../compiler/compile.js';
import type { Warehouse } from '../drivers/warehouse.js';
import type { DataModel } from '../model.js';
import { writeSample } from '../sample/sample.js';
import { warehouseTargets } from './warehouses.js';

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

/** The kit's warehouses (DuckDB always, PostgreSQL with DATABASE_URL) holding the sample data and its compiled model. */
export function sampleTargets(): SampleTarget[] {
  return warehouseTargets({ schemaPrefix: 'semantic_test' }).map((target) => ({
    name: target.name,
    open: async () => {
      const db = await target.open();
      const files = await writeSample(db.warehouse, { lineItems: TEST_LINE_ITEMS, schema: db.schema });
      const compiled = compile(files);
      if (!compiled.valid) throw new Error(`sample model invalid: ${JSON.stringify(compiled.errors)}`);
      return { name: db.name, warehouse: db.warehouse, model: compiled.model, table: db.table, close: db.close };
    },
  }));
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
