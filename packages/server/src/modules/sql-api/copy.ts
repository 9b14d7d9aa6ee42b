import { textValuesOf } from './catalog-protocol.js';
import { copyQueryOf, NO_BINDING, runQuery, type Served } from './plans.js';
import { untilAborted } from './errors.js';
import * as wire from './wire.js';

/** A value in COPY's text format: backslash escapes, `\N` for NULL. */
const textField = (value: string | null) =>
  value === null ? '\\N' : value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

/** A value in CSV: quoted when it holds a separator, a quote or a line break; empty unquoted for NULL. */
const csvField = (value: string | null) => (value === null ? '' : /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * `COPY (query) TO STDOUT`: the query's rows as CopyData lines, one row at a time as they stream,
 * in PostgreSQL's text format or as CSV. The rows are encoded as text by whichever engine answers
 * the query, then written out without being gathered.
 */
export async function copyOut(
  sql: string,
  served: () => Promise<Served>,
  send: (chunk: Buffer) => Promise<void> | void,
  signal: AbortSignal,
) {
  const { query, csv, header } = copyQueryOf(sql);
  const outcome = await runQuery(query, [], NO_BINDING, await served(), signal);
  const names = outcome.description ? columnNames(outcome.description) : [];
  await send(wire.copyOutResponse(names.length));
  const line = (values: (string | null)[]) => `${values.map(csv ? csvField : textField).join(csv ? ',' : '\t')}\n`;
  if (header) await send(wire.copyData(Buffer.from(line(names), 'utf8')));
  let count = 0;
  try {
    for (;;) {
      const next = await untilAborted(outcome.rows.next(), signal);
      if (next.done) break;
      await send(wire.copyData(Buffer.from(line(textValuesOf(next.value)), 'utf8')));
      count += 1;
    }
  } finally {
    // Ended early (an error, a cancellation): the stream's warehouse cursor is released. Not awaited:
    // a read still pending (a warehouse slow to heed the abort) would hold the answer back.
    Promise.resolve(outcome.rows.return?.()).catch(() => undefined);
  }
  await send(wire.copyDone());
  await send(wire.commandComplete(`COPY ${count}`));
}

/** The column names of a RowDescription. */
function columnNames(description: Buffer): string[] {
  const count = description.readInt16BE(5);
  const names: string[] = [];
  let at = 7;
  for (let i = 0; i < count; i++) {
    const end = description.indexOf(0, at);
    names.push(description.toString('utf8', at, end));
    at = end + 1 + 18;
  }
  return names;
}
