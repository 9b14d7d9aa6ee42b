import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { once } from 'node:events';
import type { DuckDBWarehouse, RollupColumn } from '@plinth/semantic';

/** Where a deployment's rollups live under the data directory: one folder per build, one file per partition version. */
export function rollupFile(deploymentId: number, buildId: number, rollupId: string, partition: string, version: string): string {
  return join('rollups', String(deploymentId), String(buildId), safeName(rollupId), `${safeName(partition)}.${version}.parquet`);
}

/** A build's folder, removed with its files when the build is no longer served. */
export function buildFolder(deploymentId: number, buildId: number): string {
  return join('rollups', String(deploymentId), String(buildId));
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9_.-]/g, '_');

/** A new partition version's name: random, so two processes never write one file, and a rebuild never reuses a cached answer's. */
export const newVersion = () => randomBytes(5).toString('hex');

/** SQL literal of a path (server-made, but quoted all the same). */
export const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The DuckDB type a rollup column is stored as. Numbers keep the source's exactness: integers as
 * BIGINT (HUGEINT past it), decimal strings (PostgreSQL's numeric) as DECIMAL at their scale, and
 * anything else as DOUBLE, so a re-aggregated sum prints as the warehouse's would.
 */
export function storedType(column: RollupColumn, values: Iterable<unknown>): string {
  switch (column.type) {
    case 'string':
      return 'VARCHAR';
    case 'boolean':
      return 'BOOLEAN';
    case 'time':
      return 'TIMESTAMP';
    case 'list':
      return 'VARCHAR[]';
    case 'number':
      return numberType(values);
  }
}

function numberType(values: Iterable<unknown>): string {
  let scale = 0;
  let double = false;
  let huge = false;
  for (const value of values) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'number') {
      if (!Number.isInteger(value)) double = true;
      else if (!Number.isSafeInteger(value)) huge = true;
      continue;
    }
    const text = String(value);
    const match = /^-?\d+(?:\.(\d+))?$/.exec(text);
    if (!match) double = true;
    else if (match[1]) scale = Math.max(scale, match[1].length);
    else if (text.replace('-', '').length > 18) huge = true;
  }
  if (double) return 'DOUBLE';
  if (scale > 0) return `DECIMAL(38, ${Math.min(scale, 30)})`;
  return huge ? 'HUGEINT' : 'BIGINT';
}

/** The type of an empty rollup's columns: no value says more. */
export function emptyType(column: RollupColumn): string {
  return column.type === 'number' ? 'DOUBLE' : storedType(column, []);
}

const text = (value: unknown): unknown => {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(text);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
};

/**
 * Writes a partition's rows as a Parquet file at `target` (relative to `dataDir`): the rows go to
 * a scratch file as text, DuckDB casts them to their stored types into a temporary name, and the
 * finished file is renamed into place, so no reader can see it half-written (readers find files
 * through the manifest anyway, which names a file only once it is in place).
 */
export async function writePartition(
  duck: DuckDBWarehouse,
  dataDir: string,
  target: string,
  columns: readonly RollupColumn[],
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<{ rows: number; bytes: number }> {
  const path = join(dataDir, target);
  await mkdir(dirname(path), { recursive: true });
  const scratch = `${path}.${randomBytes(4).toString('hex')}`;
  const lines = `${scratch}.ndjson`;
  const draft = `${scratch}.tmp`;
  try {
    const out = createWriteStream(lines);
    for (const row of rows) {
      const line: Record<string, unknown> = {};
      for (const column of columns) line[column.name] = text(row[column.name]);
      if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
    const types = columns.map((column) =>
      storedType(
        column,
        rows.map((row) => row[column.name]),
      ),
    );
    const read = `{${columns.map((c) => `${literal(c.name)}: ${literal(c.type === 'list' ? 'VARCHAR[]' : 'VARCHAR')}`).join(', ')}}`;
    const select = columns.map((c, i) => `${castOf(`"${c.name}"`, types[i]!)} AS "${c.name}"`).join(', ');
    const source = rows.length
      ? `read_json(${literal(lines)}, format = 'newline_delimited', columns = ${read})`
      : `(SELECT ${columns.map((c) => `CAST(NULL AS ${c.type === 'list' ? 'VARCHAR[]' : 'VARCHAR'}) AS "${c.name}"`).join(', ')} WHERE false)`;
    await duck.query(`COPY (SELECT ${select} FROM ${source}) TO ${literal(draft)} (FORMAT parquet)`, []);
    await rename(draft, path);
    return { rows: rows.length, bytes: (await stat(path)).size };
  } finally {
    await Promise.all([rm(lines, { force: true }), rm(draft, { force: true })]);
  }
}

/** Times come as ISO text with or without a zone; read with one, they land on UTC wall-clock time. */
function castOf(expression: string, type: string): string {
  if (type === 'TIMESTAMP') return `CAST(CAST(${expression} AS TIMESTAMPTZ) AS TIMESTAMP)`;
  return `CAST(${expression} AS ${type})`;
}

/** Deletes files of the manifest's past (relative to `dataDir`); one already gone is fine. */
export async function removeFiles(dataDir: string, files: readonly string[]): Promise<void> {
  await Promise.all(files.map((file) => rm(join(dataDir, file), { force: true, recursive: true })));
}

export const relativeTo = (dataDir: string, path: string) => relative(dataDir, path);
