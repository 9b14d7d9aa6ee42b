import type { IO } from './io.js';
import type { Response } from './http.js';

/** A column: its header and how to read the cell from a row (a dotted path or a function). */
/** A row of a table: one object of a JSON list body, whose fields each list's columns name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one untyped boundary: column readers of ~40 lists; typing each list's rows would repeat the server's schemas
export type Row = any;
export type Column = [header: string, value: string | ((row: Row) => unknown)];

export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(cell).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/\s+/g, ' ');
}

function read(row: Row, accessor: Column[1]): unknown {
  if (typeof accessor === 'function') return accessor(row);
  return accessor.split('.').reduce<unknown>((value, key) => (value == null ? undefined : (value as Record<string, unknown>)[key]), row);
}

/** The one table printer: upper-case headers, columns aligned with two spaces, no borders. */
export function formatTable(columns: Column[], rows: Row[]): string {
  const cells = rows.map((row) => columns.map(([, accessor]) => cell(read(row, accessor))));
  const headers = columns.map(([header]) => header.toUpperCase());
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(headers), ...cells.map(line)].join('\n')}\n`;
}

/** `FIELD  value` lines for one object; nested values as compact JSON. */
export function formatObject(object: Record<string, unknown>, fields?: Column[]): string {
  const entries: Array<[string, string]> = fields
    ? fields.map(([label, accessor]) => [label, cell(read(object, accessor))])
    : Object.entries(object).map(([key, value]) => [key, cell(value)]);
  const width = Math.max(0, ...entries.map(([key]) => key.length));
  return entries.map(([key, value]) => `${key.padEnd(width)}  ${value}`.trimEnd()).join('\n') + '\n';
}

/** The items of a list body: platform `{items}`, SCIM `{Resources}`, or a bare array. */
export function itemsOf(body: unknown): Row[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (Array.isArray(b.items)) return b.items;
    if (Array.isArray(b.Resources)) return b.Resources;
  }
  return [];
}

/** Writes responses the way every command does: `--json` passes the body through untouched. */
export class Output {
  constructor(
    private readonly io: IO,
    readonly json: boolean,
  ) {}

  /** Data, on stdout. */
  data(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Progress and confirmations, on stderr, and only for a person at a terminal. */
  status(text: string): void {
    if (this.io.stderrIsTTY) this.io.stderr.write(`${text}\n`);
  }

  /** Messages that must be seen even when stderr is not a terminal (a login code, "No results"). */
  notice(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  raw(response: Response): void {
    if (response.text) this.data(response.text);
  }

  list(response: Response, columns: Column[]): void {
    if (this.json) return this.raw(response);
    const rows = itemsOf(response.data);
    if (rows.length === 0) return this.notice('No results');
    this.data(formatTable(columns, rows));
    const pageInfo = (response.data as { pageInfo?: { hasNextPage?: boolean; endCursor?: string } } | undefined)?.pageInfo;
    if (pageInfo?.hasNextPage && pageInfo.endCursor) this.notice(`More results: add --after ${pageInfo.endCursor}`);
  }

  object(response: Response, fields?: Column[]): void {
    if (this.json) return this.raw(response);
    if (response.data && typeof response.data === 'object') this.data(formatObject(response.data as Record<string, unknown>, fields));
    else if (response.text) this.data(response.text);
  }
}
