import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { warehouseFromVariables } from './warehouse.js';

const postgres = { CUBEJS_DB_TYPE: 'postgres', CUBEJS_DB_HOST: 'db.internal', CUBEJS_DB_NAME: 'shop', CUBEJS_DB_USER: 'reader' };
const config = (variables: Record<string, string>) => warehouseFromVariables(new Map(Object.entries(variables)));

describe('warehouseFromVariables: what the CUBEJS_DB_* variables configure', () => {
  it.each([
    ['nothing set: the embedded DuckDB', {}, { type: 'duckdb', path: null }],
    [
      'duckdb with a file',
      { CUBEJS_DB_TYPE: 'duckdb', CUBEJS_DB_DUCKDB_DATABASE_PATH: '/data/shop.duckdb' },
      { type: 'duckdb', path: '/data/shop.duckdb' },
    ],
    ['a path without a type is duckdb', { CUBEJS_DB_DUCKDB_DATABASE_PATH: '/d.duckdb' }, { type: 'duckdb', path: '/d.duckdb' }],
    ['postgres settings are ignored by duckdb', { CUBEJS_DB_HOST: 'x', CUBEJS_DB_PORT: 'nope' }, { type: 'duckdb', path: null }],
    [
      'postgres with its defaults',
      postgres,
      {
        type: 'postgres',
        host: 'db.internal',
        port: 5432,
        database: 'shop',
        user: 'reader',
        password: null,
        ssl: false,
        poolSize: 8,
        statementTimeoutMs: 600_000,
      },
    ],
    [
      'postgres with every setting',
      {
        ...postgres,
        CUBEJS_DB_PORT: '6543',
        CUBEJS_DB_PASS: 's3cret',
        CUBEJS_DB_SSL: 'true',
        CUBEJS_DB_MAX_POOL: '20',
        CUBEJS_DB_QUERY_TIMEOUT: '90',
      },
      { port: 6543, password: 's3cret', ssl: true, poolSize: 20, statementTimeoutMs: 90_000 },
    ],
    ['timeout in seconds', { ...postgres, CUBEJS_DB_QUERY_TIMEOUT: '30s' }, { statementTimeoutMs: 30_000 }],
    ['timeout in minutes', { ...postgres, CUBEJS_DB_QUERY_TIMEOUT: '2m' }, { statementTimeoutMs: 120_000 }],
    ['timeout in hours', { ...postgres, CUBEJS_DB_QUERY_TIMEOUT: '1h' }, { statementTimeoutMs: 3_600_000 }],
    ['ssl off', { ...postgres, CUBEJS_DB_SSL: 'false' }, { ssl: false }],
  ])('%s', (_, variables, expected) => {
    expect(config(variables)).toMatchObject(expected);
  });

  it.each([
    [
      'a relative DuckDB path',
      { CUBEJS_DB_DUCKDB_DATABASE_PATH: 'data/shop.duckdb' },
      'CUBEJS_DB_DUCKDB_DATABASE_PATH must be an absolute path, got "data/shop.duckdb"',
    ],
    ['an unknown type', { CUBEJS_DB_TYPE: 'mysql' }, 'CUBEJS_DB_TYPE must be one of duckdb, postgres, got "mysql"'],
    ['a type in capitals', { CUBEJS_DB_TYPE: 'Postgres' }, 'CUBEJS_DB_TYPE must be one of duckdb, postgres, got "Postgres"'],
    ['postgres without a host', { ...postgres, CUBEJS_DB_HOST: undefined }, 'CUBEJS_DB_HOST must be set when CUBEJS_DB_TYPE is postgres'],
    [
      'postgres without a database',
      { ...postgres, CUBEJS_DB_NAME: undefined },
      'CUBEJS_DB_NAME must be set when CUBEJS_DB_TYPE is postgres',
    ],
    ['postgres without a user', { ...postgres, CUBEJS_DB_USER: undefined }, 'CUBEJS_DB_USER must be set when CUBEJS_DB_TYPE is postgres'],
    ['a non-numeric port', { ...postgres, CUBEJS_DB_PORT: 'five' }, 'CUBEJS_DB_PORT must be a whole number from 1 to 65535, got "five"'],
    ['port 0', { ...postgres, CUBEJS_DB_PORT: '0' }, 'CUBEJS_DB_PORT must be a whole number from 1 to 65535, got "0"'],
    ['a port too high', { ...postgres, CUBEJS_DB_PORT: '65536' }, 'CUBEJS_DB_PORT must be a whole number from 1 to 65535'],
    ['a negative port', { ...postgres, CUBEJS_DB_PORT: '-1' }, 'CUBEJS_DB_PORT must be a whole number'],
    ['a fractional port', { ...postgres, CUBEJS_DB_PORT: '54.3' }, 'CUBEJS_DB_PORT must be a whole number'],
    ['ssl not a boolean', { ...postgres, CUBEJS_DB_SSL: 'yes' }, 'CUBEJS_DB_SSL must be true or false, got "yes"'],
    ['pool of 0', { ...postgres, CUBEJS_DB_MAX_POOL: '0' }, 'CUBEJS_DB_MAX_POOL must be a whole number from 1 to 100, got "0"'],
    ['pool too large', { ...postgres, CUBEJS_DB_MAX_POOL: '101' }, 'CUBEJS_DB_MAX_POOL must be a whole number from 1 to 100'],
    ['a timeout with an unknown unit', { ...postgres, CUBEJS_DB_QUERY_TIMEOUT: '10d' }, 'CUBEJS_DB_QUERY_TIMEOUT must be a duration'],
    ['a zero timeout', { ...postgres, CUBEJS_DB_QUERY_TIMEOUT: '0' }, 'CUBEJS_DB_QUERY_TIMEOUT must be a duration'],
    ['a timeout over a day', { ...postgres, CUBEJS_DB_QUERY_TIMEOUT: '25h' }, 'CUBEJS_DB_QUERY_TIMEOUT must be a duration'],
  ])('refuses %s, naming the variable (400)', (_, variables, message) => {
    const defined = Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== undefined)) as Record<string, string>;
    let error: unknown;
    try {
      config(defined);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain(message);
  });
});
