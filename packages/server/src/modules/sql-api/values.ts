import { SqlTranslationError } from '@plinth/semantic';

/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01), which binary timestamps count from. */
const PG_EPOCH_MICROS = 946_684_800_000_000n;

/**
 * A value of the data API's answer in PostgreSQL's text format for its column's type: numbers as
 * written, times as `YYYY-MM-DD HH:MM:SS[.ffffff]` (Cube's times carry no zone), booleans `t`/`f`.
 */
export function textOf(value: unknown, typeName: string): string {
  if (typeName === 'bool') return value === true || value === 'true' || value === 't' || value === 1 ? 't' : 'f';
  if (typeName === 'timestamp' && typeof value === 'string') return timestampText(value);
  if (value instanceof Date) return timestampText(value.toISOString());
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function timestampText(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?/.exec(iso);
  if (!match) return iso;
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  return `${match[1]} ${match[2]}${fraction === '.' ? '' : fraction}`;
}

/** The value in the format the client asked for its column: 0 text, 1 binary. */
export function encodeValue(value: unknown, typeName: string, format: number): Buffer | null {
  if (value === null || value === undefined) return null;
  const text = textOf(value, typeName);
  if (format === 0) return Buffer.from(text, 'utf8');
  switch (typeName) {
    case 'int8': {
      const b = Buffer.alloc(8);
      b.writeBigInt64BE(BigInt(text.includes('.') ? Math.trunc(Number(text)) : text));
      return b;
    }
    case 'float8': {
      const b = Buffer.alloc(8);
      b.writeDoubleBE(Number(text));
      return b;
    }
    case 'bool':
      return Buffer.from([text === 't' ? 1 : 0]);
    case 'timestamp': {
      const millis = Date.parse(`${text.replace(' ', 'T')}Z`);
      const micros = BigInt(millis) * 1000n + BigInt(Number(/\.\d{3}(\d{0,3})/.exec(text)?.[1]?.padEnd(3, '0') ?? '0'));
      const b = Buffer.alloc(8);
      b.writeBigInt64BE(micros - PG_EPOCH_MICROS);
      return b;
    }
    case 'text':
      return Buffer.from(text, 'utf8');
    default:
      throw new SqlTranslationError('feature_not_supported', `The binary format of type ${typeName} is not supported: ask for text`);
  }
}

/** A parameter of Bind as the translation takes it: text as sent, binary decoded by its declared type. */
export function decodeParam(bytes: Buffer | null, format: number, typeOid: number): unknown {
  if (bytes === null) return null;
  if (format === 0) return bytes.toString('utf8');
  switch (typeOid) {
    case 16:
      return bytes[0] === 1;
    case 21:
      return bytes.readInt16BE();
    case 23:
      return bytes.readInt32BE();
    case 20:
      return bytes.readBigInt64BE().toString();
    case 700:
      return bytes.readFloatBE();
    case 701:
      return bytes.readDoubleBE();
    case 25:
    case 1043:
    case 0:
      return bytes.toString('utf8');
    default:
      throw new SqlTranslationError('feature_not_supported', `A binary parameter of type oid ${typeOid} is not supported: send it as text`);
  }
}
