/**
 * The backend messages of PostgreSQL's protocol 3.0 this server sends beyond what pg-gateway
 * writes for the start-up and authentication (it leaves every message after them to us), and a
 * reader of the frontend messages of the simple and extended query protocols.
 */

/** A column of a RowDescription: its name and type (a PostgreSQL type oid), sent as text or binary. */
export interface WireField {
  name: string;
  typeOid: number;
  /** The type's size as pg_type.typlen gives it (-1 for variable length). */
  typeSize?: number;
  tableOid?: number;
  columnId?: number;
}

/** One message: its type byte, then its length (itself included) and body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

export const parseComplete = () => message('1', Buffer.alloc(0));
export const bindComplete = () => message('2', Buffer.alloc(0));
export const closeComplete = () => message('3', Buffer.alloc(0));
export const noData = () => message('n', Buffer.alloc(0));
export const portalSuspended = () => message('s', Buffer.alloc(0));
export const emptyQueryResponse = () => message('I', Buffer.alloc(0));
export const copyDone = () => message('c', Buffer.alloc(0));
export const commandComplete = (tag: string) => message('C', cstring(tag));
export const readyForQuery = (status: 'I' | 'T' | 'E' = 'I') => message('Z', Buffer.from(status, 'latin1'));
export const parameterStatus = (name: string, value: string) => message('S', Buffer.concat([cstring(name), cstring(value)]));
export const backendKeyData = (pid: number, secret: number) => message('K', Buffer.concat([int32(pid), int32(secret)]));
export const copyData = (bytes: Buffer) => message('d', bytes);

/** CopyOutResponse: a text COPY of `columns` columns. */
export function copyOutResponse(columns: number): Buffer {
  return message('H', Buffer.concat([Buffer.from([0]), int16(columns), ...Array.from({ length: columns }, () => int16(0))]));
}

export function parameterDescription(oids: readonly number[]): Buffer {
  return message('t', Buffer.concat([int16(oids.length), ...oids.map(int32)]));
}

/** RowDescription, each field in the format code the client asked for (0 text, 1 binary). */
export function rowDescription(fields: readonly WireField[], formats: readonly number[] = []): Buffer {
  const parts: Buffer[] = [int16(fields.length)];
  fields.forEach((field, i) => {
    const format = formats.length === 1 ? formats[0]! : (formats[i] ?? 0);
    parts.push(cstring(field.name), int32(field.tableOid ?? 0), int16(field.columnId ?? 0), int32(field.typeOid));
    parts.push(int16(field.typeSize ?? -1), int32(-1), int16(format));
  });
  return message('T', Buffer.concat(parts));
}

/** DataRow of values already encoded (null for SQL NULL). */
export function dataRow(values: readonly (Buffer | null)[]): Buffer {
  const parts: Buffer[] = [int16(values.length)];
  for (const value of values) {
    if (value === null) parts.push(int32(-1));
    else parts.push(int32(value.length), value);
  }
  return message('D', Buffer.concat(parts));
}

/** The fields of an ErrorResponse or NoticeResponse. */
export interface WireError {
  severity?: 'ERROR' | 'FATAL' | 'WARNING' | 'NOTICE';
  code: string;
  message: string;
  detail?: string;
  hint?: string;
  position?: number;
}

export function errorResponse(error: WireError, type: 'E' | 'N' = 'E'): Buffer {
  const severity = error.severity ?? 'ERROR';
  const fields: Array<[string, string | undefined]> = [
    ['S', severity],
    ['V', severity],
    ['C', error.code],
    ['M', error.message],
    ['D', error.detail],
    ['H', error.hint],
    ['P', error.position === undefined ? undefined : String(error.position)],
  ];
  const parts = fields.flatMap(([key, value]) => (value === undefined ? [] : [Buffer.from(key, 'latin1'), cstring(value)]));
  return message(type, Buffer.concat([...parts, Buffer.from([0])]));
}

/** Reads the body of one frontend message; a message shorter than it claims is the client's protocol violation. */
export class MessageReader {
  private at: number;
  constructor(
    private readonly bytes: Uint8Array,
    start = 5,
  ) {
    this.at = start;
  }

  private need(n: number): void {
    if (this.at + n > this.bytes.length) throw new ProtocolViolation('message shorter than its fields');
  }
  byte(): number {
    this.need(1);
    return this.bytes[this.at++]!;
  }
  int16(): number {
    this.need(2);
    const value = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.at, 2).readInt16BE();
    this.at += 2;
    return value;
  }
  int32(): number {
    this.need(4);
    const value = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.at, 4).readInt32BE();
    this.at += 4;
    return value;
  }
  cstring(): string {
    const end = this.bytes.indexOf(0, this.at);
    if (end < 0) throw new ProtocolViolation('string without its terminating zero');
    const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.at, end - this.at).toString('utf8');
    this.at = end + 1;
    return text;
  }
  bytesOf(n: number): Buffer {
    this.need(n);
    const value = Buffer.from(this.bytes.subarray(this.at, this.at + n));
    this.at += n;
    return value;
  }
}

/** A frontend message that breaks the protocol: answered with SQLSTATE 08P01 and the connection closed. */
export class ProtocolViolation extends Error {}
