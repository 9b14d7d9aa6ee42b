import { isAbsolute } from 'node:path';
import { badRequest } from '../../http/errors.js';
import type { WarehouseConfig } from './public.js';

/** Cube's postgres driver defaults, so a deployment moved from Cube behaves the same. */
export const DEFAULT_PORT = 5432;
export const DEFAULT_POOL_SIZE = 8;
export const MAX_POOL_SIZE = 100;
/** Cube's default `CUBEJS_DB_QUERY_TIMEOUT` is 10 minutes. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10 * 60_000;
const MAX_STATEMENT_TIMEOUT_MS = 24 * 3_600_000;
const TYPES = ['duckdb', 'postgres'] as const;

/**
 * The warehouse a set of variables configures. Called on every change with the variables as they
 * would be after it, so an invalid combination is refused (400 naming the variable) before it is
 * stored, and the data API never meets one. No `CUBEJS_DB_TYPE` means the embedded DuckDB.
 */
export function warehouseFromVariables(variables: ReadonlyMap<string, string>): WarehouseConfig {
  const type = variables.get('CUBEJS_DB_TYPE') ?? 'duckdb';
  if (!(TYPES as readonly string[]).includes(type)) {
    throw badRequest(`CUBEJS_DB_TYPE must be one of ${TYPES.join(', ')}, got "${type}"`);
  }
  if (type === 'duckdb') return { type: 'duckdb', path: duckDbPath(variables.get('CUBEJS_DB_DUCKDB_DATABASE_PATH')) };
  const required = (name: string) => {
    const value = variables.get(name);
    if (value === undefined) throw badRequest(`${name} must be set when CUBEJS_DB_TYPE is postgres`);
    return value;
  };
  return {
    type: 'postgres',
    host: required('CUBEJS_DB_HOST'),
    port: integer(variables, 'CUBEJS_DB_PORT', DEFAULT_PORT, 1, 65_535),
    database: required('CUBEJS_DB_NAME'),
    user: required('CUBEJS_DB_USER'),
    password: variables.get('CUBEJS_DB_PASS') ?? null,
    ssl: boolean(variables, 'CUBEJS_DB_SSL'),
    poolSize: integer(variables, 'CUBEJS_DB_MAX_POOL', DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE),
    statementTimeoutMs: duration(variables, 'CUBEJS_DB_QUERY_TIMEOUT'),
  };
}

/** A relative path would depend on the directory the server happens to start in. */
function duckDbPath(path: string | undefined): string | null {
  if (path === undefined) return null;
  if (!isAbsolute(path)) throw badRequest(`CUBEJS_DB_DUCKDB_DATABASE_PATH must be an absolute path, got "${path}"`);
  return path;
}

function integer(variables: ReadonlyMap<string, string>, name: string, fallback: number, min: number, max: number): number {
  const value = variables.get(name);
  if (value === undefined) return fallback;
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw badRequest(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

function boolean(variables: ReadonlyMap<string, string>, name: string): boolean {
  const value = variables.get(name);
  if (value === undefined) return false;
  if (value === 'true' || value === 'false') return value === 'true';
  throw badRequest(`${name} must be true or false, got "${value}"`);
}

const UNIT_MS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000 };

/** As Cube reads it: seconds, or a number with a unit `s`, `m` or `h` (`90s`, `10m`). */
function duration(variables: ReadonlyMap<string, string>, name: string): number {
  const value = variables.get(name);
  if (value === undefined) return DEFAULT_STATEMENT_TIMEOUT_MS;
  const match = /^(\d{1,6})(s|m|h)?$/.exec(value);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] ?? '']! : NaN;
  if (!(ms >= 1000 && ms <= MAX_STATEMENT_TIMEOUT_MS)) {
    throw badRequest(`${name} must be a duration from 1s to 24h (seconds, or a number with s, m or h), got "${value}"`);
  }
  return ms;
}
