import type { SqlColumn } from './translate.js';

/** Rows per `data` line: a large answer streams as several lines, as Cube's SQL API sends chunks. */
export const CHUNK_ROWS = 1000;

interface LoadAnswer {
  data?: Array<Record<string, unknown>>;
  lastRefreshTime?: string;
}

/**
 * The `/v1/cubesql` body, newline-delimited JSON: a `schema` line (column names and types, and the
 * result's `lastRefreshTime` when the load gives one), then `data` lines of rows as arrays in column
 * order. Values are the load's own, so a row reads the same through `/v1/load` and here.
 */
export function cubesqlLines(answer: unknown, columns: readonly SqlColumn[]): string {
  const { data = [], lastRefreshTime } = (answer ?? {}) as LoadAnswer;
  const schema = {
    schema: columns.map((c) => ({ name: c.name, column_type: c.columnType })),
    ...(typeof lastRefreshTime === 'string' ? { lastRefreshTime } : {}),
  };
  const lines = [JSON.stringify(schema)];
  for (let start = 0; start < data.length; start += CHUNK_ROWS) {
    const rows = data.slice(start, start + CHUNK_ROWS).map((row) => columns.map((c) => row[c.key] ?? null));
    lines.push(JSON.stringify({ data: rows }));
  }
  return `${lines.join('\n')}\n`;
}
