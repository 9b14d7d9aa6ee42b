import type { BackendMessage, CatalogSession } from './catalog.js';
import type { Binding, Outcome, Shape } from './plans.js';

/** A frontend message of the extended protocol, to send to the catalog as a client would. */
function frontend(type: string, parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const i16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const i32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

const parse = (sql: string, oids: readonly number[]) => frontend('P', [cstr(''), cstr(sql), i16(oids.length), ...oids.map(i32)]);
const SYNC = frontend('S', []);

function bind(binding: Binding): Buffer {
  const values = binding.values.flatMap((v) => (v === null ? [i32(-1)] : [i32(v.length), v]));
  return frontend('B', [
    cstr(''),
    cstr(''),
    i16(binding.paramFormats.length),
    ...binding.paramFormats.map(i16),
    i16(binding.values.length),
    ...values,
    i16(binding.resultFormats.length),
    ...binding.resultFormats.map(i16),
  ]);
}

/** PostgreSQL's own ErrorResponse, to forward to the client as it is. */
export class CatalogError extends Error {
  constructor(readonly response: Buffer) {
    super('catalog error');
  }
}

function failed(messages: BackendMessage[]): void {
  const error = messages.find((m) => m.type === 'E');
  if (error) throw new CatalogError(Buffer.from(error.bytes));
}

/** The parameter types and columns PostgreSQL gives a statement on the catalog. */
export async function catalogDescribe(catalog: CatalogSession, sql: string, paramOids: readonly number[]): Promise<Shape> {
  const messages = await catalog.exchange(Buffer.concat([parse(sql, paramOids), frontend('D', [Buffer.from('S'), cstr('')]), SYNC]));
  failed(messages);
  const params = messages.find((m) => m.type === 't');
  const oids: number[] = [];
  if (params) {
    const count = params.bytes.readInt16BE(5);
    for (let i = 0; i < count; i++) oids.push(params.bytes.readInt32BE(7 + 4 * i));
  }
  const description = messages.find((m) => m.type === 'T');
  return { paramOids: oids, description: description ? Buffer.from(description.bytes) : null };
}

/** Runs a statement on the catalog; its rows come back as PostgreSQL encoded them, in the formats asked. */
export async function catalogRun(catalog: CatalogSession, sql: string, paramOids: readonly number[], binding: Binding): Promise<Outcome> {
  const messages = await catalog.exchange(
    Buffer.concat([
      parse(sql, paramOids),
      bind(binding),
      frontend('D', [Buffer.from('P'), cstr('')]),
      frontend('E', [cstr(''), i32(0)]),
      SYNC,
    ]),
  );
  failed(messages);
  const description = messages.find((m) => m.type === 'T');
  const rows = messages.filter((m) => m.type === 'D').map((m) => Buffer.from(m.bytes));
  const complete = messages.find((m) => m.type === 'C');
  const tag = complete ? complete.bytes.subarray(5, complete.bytes.length - 1).toString('utf8') : 'SELECT';
  const verb = tag.replace(/\s+\d+$/, '');
  return {
    description: description ? Buffer.from(description.bytes) : null,
    rows: rows[Symbol.iterator](),
    tag: (sent) => (verb === 'SELECT' ? `SELECT ${sent}` : tag),
  };
}

/** The text values of a DataRow sent in text format (for COPY): null for NULL. */
export function textValuesOf(row: Buffer): (string | null)[] {
  const count = row.readInt16BE(5);
  const values: (string | null)[] = [];
  let at = 7;
  for (let i = 0; i < count; i++) {
    const length = row.readInt32BE(at);
    at += 4;
    if (length < 0) values.push(null);
    else {
      values.push(row.toString('utf8', at, at + length));
      at += length;
    }
  }
  return values;
}
