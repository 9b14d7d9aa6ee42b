import type { SqlAnswer } from './answer.js';

/** Rows per `data` line: a large answer streams as several lines, as Cube's SQL API sends chunks. */
export const CHUNK_ROWS = 1000;

/**
 * The `/v1/cubesql` body, newline-delimited JSON: a `schema` line (column names and types, and the
 * result's `lastRefreshTime` when the load gives one), then `data` lines of rows as arrays in column
 * order. Values are the answer's own, so a row reads the same through `/v1/load` and here.
 */
export async function cubesqlLines(answer: SqlAnswer): Promise<string> {
  const schema = {
    schema: answer.columns.map((c) => ({ name: c.name, column_type: c.columnType })),
    ...(typeof answer.lastRefreshTime === 'string' ? { lastRefreshTime: answer.lastRefreshTime } : {}),
  };
  const lines = [JSON.stringify(schema)];
  let chunk: unknown[][] = [];
  for await (const row of answer.rows) {
    chunk.push(row);
    if (chunk.length === CHUNK_ROWS) {
      lines.push(JSON.stringify({ data: chunk }));
      chunk = [];
    }
  }
  if (chunk.length > 0) lines.push(JSON.stringify({ data: chunk }));
  return `${lines.join('\n')}\n`;
}
